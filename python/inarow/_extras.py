"""The optional dependencies ("extras"): the one error that names a missing extra and a
command that installs it, as pasted, whatever way inarow was installed.

``pip install 'inarow[train]'`` works only where a package index serves inarow, and
``pip install '.[train]'`` only in a clone: the command printed here installs the
extra's requirements themselves (read from the installed package's metadata), the
CPU-only PyTorch first on Linux, where the default wheel pulls in CUDA libraries.
"""

from __future__ import annotations

import importlib
import re
import shlex
import sys
from typing import Any

__all__ = ["MissingExtraError", "install_command", "missing", "require"]

#: PyTorch's CPU-only wheels (Linux's default one brings gigabytes of CUDA).
TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"

#: What each extra is for, in the message.
_WHAT = {
    "progress": "tqdm",
    "gymnasium": "Gymnasium",
    "pettingzoo": "PettingZoo",
    "ray": "Ray",
    "plot": "matplotlib",
    "train": "PyTorch",
    "sb3": "Stable-Baselines3",
}

#: Requirements of what has no extra of its own.
_NO_EXTRA = {"sb3": ["stable-baselines3>=2", "sb3-contrib>=2", "gymnasium>=1.0,<2"]}


class MissingExtraError(ModuleNotFoundError):
    """An optional dependency is missing. The message names the extra and a ``pip``
    command that installs it; ``extra`` and ``command`` hold them."""

    def __init__(self, message: str, *, name: str | None, extra: str, command: str) -> None:
        super().__init__(message, name=name)
        self.extra = extra
        self.command = command


def requirements(extra: str) -> list[str]:
    """The requirements of ``extra`` as the installed inarow declares them (empty when
    inarow's metadata cannot be read, e.g. a source tree never installed)."""
    if extra in _NO_EXTRA:
        return list(_NO_EXTRA[extra])
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import requires as metadata_requires

    try:
        declared = metadata_requires("inarow") or []
    except PackageNotFoundError:
        return []
    marker = re.compile(r"""extra\s*==\s*["']""" + re.escape(extra) + r"""["']""")
    return [r.split(";")[0].strip() for r in declared if ";" in r and marker.search(r)]


def install_command(extra: str) -> str:
    """A shell command that installs ``extra``'s requirements, for this platform."""
    reqs = requirements(extra)
    if not reqs:  # no metadata: the form that works in a clone
        return f"pip install '.[{extra}]'"
    torch = [r for r in reqs if re.match(r"torch\b", r)]
    rest = [r for r in reqs if r not in torch]
    steps = []
    if torch:
        index = f" --index-url {TORCH_CPU_INDEX}" if sys.platform.startswith("linux") else ""
        steps.append(f"pip install {' '.join(shlex.quote(r) for r in torch)}{index}")
    if rest:
        steps.append(f"pip install {' '.join(shlex.quote(r) for r in rest)}")
    return " && ".join(steps)


def missing(extra: str, needed_by: str, error: BaseException | None = None) -> MissingExtraError:
    """The error to raise when ``needed_by`` cannot import what ``extra`` brings."""
    what = _WHAT.get(extra, extra)
    kind = "" if extra in _NO_EXTRA else f", inarow's '{extra}' extra"
    command = install_command(extra)
    cause = f" ({error})" if error is not None else ""
    message = f"{needed_by} needs {what}{kind}{cause}; install it with: {command}"
    name = getattr(error, "name", None)
    return MissingExtraError(message, name=name, extra=extra, command=command)


def require(module: str, extra: str, needed_by: str) -> Any:
    """``importlib.import_module(module)``, or `MissingExtraError` naming ``extra``."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise missing(extra, needed_by, e) from e
