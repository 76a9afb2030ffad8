#!/usr/bin/env bash
# Build what a release ships, into dist/ (or $DIST):
#   - a manylinux2014 (glibc 2.17) abi3 wheel for x86_64, one file for CPython >= 3.9,
#     linked with maturin's zig linker, so no manylinux container is needed;
#   - the sdist, which builds from source with a Rust toolchain (the training runs in
#     runs/ are left out: Cargo.toml's `exclude`).
# Then `auditwheel show` reports the wheel's platform tag and the libraries it needs.
#
# Usage: scripts/build-wheels.sh            # wheel + sdist into dist/
#        scripts/build-wheels.sh --wheel    # the wheel only (what .ci/run needs)
#        DIST=/some/dir scripts/build-wheels.sh
#
# Needs cargo and python3 >= 3.9. The build tools (maturin, ziglang, auditwheel, pinned
# below) are installed in a virtual environment of their own, kept in $WHEEL_TOOLS
# (default target/wheel-tools) and reused. A release builds the same for every platform
# with .github/workflows/release.yml (see CONTRIBUTING.md, "Cutting a release").
set -euo pipefail
cd "$(dirname "$0")/.."

MATURIN="maturin>=1.9.4,<2"
ZIG="ziglang>=0.13,<0.18"
AUDITWHEEL="auditwheel>=6"
TARGET="x86_64-unknown-linux-gnu"
MANYLINUX="manylinux2014"

DIST="${DIST:-dist}"
TOOLS="${WHEEL_TOOLS:-target/wheel-tools}"
sdist=1
case "${1:-}" in
    --wheel) sdist=0 ;;
    "") ;;
    *) echo "usage: $0 [--wheel]" >&2; exit 2 ;;
esac

if [ ! -x "$TOOLS/bin/maturin" ] || [ ! -x "$TOOLS/bin/auditwheel" ] ||
    ! "$TOOLS/bin/python" -c 'import ziglang' 2>/dev/null; then
    python3 -m venv "$TOOLS"
    "$TOOLS/bin/python" -m pip install --quiet --disable-pip-version-check "$MATURIN" "$ZIG" "$AUDITWHEEL"
fi
# maturin finds zig on PATH, else as `python -m ziglang` with the active virtual
# environment's python: put the package's zig binary first on PATH and make the tools'
# environment the active one, whatever environment the caller has activated.
ZIG_DIR="$("$TOOLS/bin/python" -c 'import os, ziglang; print(os.path.dirname(ziglang.__file__))')"
export PATH="$TOOLS/bin:$ZIG_DIR:$PATH" VIRTUAL_ENV="$TOOLS"

mkdir -p "$DIST"
start=$SECONDS
# --compatibility: the wheel is tagged and checked for manylinux2014; --zig links it
# against glibc 2.17's symbols whatever the build machine's glibc.
maturin build --release --locked --zig --target "$TARGET" --compatibility "$MANYLINUX" \
    --out "$DIST" >&2
echo "wheel built in $((SECONDS - start)) s" >&2
if [ "$sdist" -eq 1 ]; then
    maturin sdist --out "$DIST" >&2
fi

version="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)"
wheel="$(ls -t "$DIST"/inarow-"$version"-cp39-abi3-*manylinux*_x86_64.whl | head -1)"
auditwheel show "$wheel" >&2
for f in "$wheel" $([ "$sdist" -eq 1 ] && ls "$DIST"/inarow-"$version".tar.gz); do
    echo "$(du -h "$f" | cut -f1)	$f" >&2
done
# The wheel's path on stdout, for scripts (.ci/run).
echo "$wheel"
