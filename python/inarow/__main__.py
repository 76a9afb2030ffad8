"""``python -m inarow``: the ``inarow`` command line (see `inarow.cli`)."""

import sys

from inarow.cli import main

sys.exit(main())
