#!/usr/bin/env bash
# CI-sized fuzzing: builds the cargo-fuzz targets and runs each one for a short time
# (FUZZ_SECONDS, default 25; five targets, about 2.5 minutes in all), one at a time.
# Exits non-zero on any crash or failed invariant; the crashing input is left in
# fuzz/artifacts/<target>/ (replay it: `cargo fuzz run <target> <file>`).
#
# Needs cargo-fuzz. On stable Rust the -Z flags it passes are enabled with
# RUSTC_BOOTSTRAP=1 (set here). If the toolchain cannot be set up, the script fails,
# unless INAROW_FUZZ_OPTIONAL=1, in which case it says why and exits 0.
#
#   fuzz/run-ci.sh                      # all targets, 25 s each
#   FUZZ_SECONDS=5 fuzz/run-ci.sh game_actions from_bytes
set -uo pipefail

cd "$(dirname "$0")"
SECONDS_PER_TARGET="${FUZZ_SECONDS:-25}"
ALL_TARGETS=(game_actions from_bytes from_cells batch_step solver_small)
if [ "$#" -gt 0 ]; then TARGETS=("$@"); else TARGETS=("${ALL_TARGETS[@]}"); fi
export RUSTC_BOOTSTRAP=1
export CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-2}"

unavailable() {
    echo "run-ci.sh: fuzzing unavailable: $*" >&2
    if [ "${INAROW_FUZZ_OPTIONAL:-0}" = "1" ]; then
        echo "run-ci.sh: INAROW_FUZZ_OPTIONAL=1, skipping (exit 0)" >&2
        exit 0
    fi
    echo "run-ci.sh: set INAROW_FUZZ_OPTIONAL=1 to make this a skip instead of a failure" >&2
    exit 2
}

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "run-ci.sh: cargo-fuzz not found, installing it (cargo install cargo-fuzz)" >&2
    cargo install cargo-fuzz --locked >&2 || unavailable "cargo install cargo-fuzz failed"
    cargo fuzz --version >/dev/null 2>&1 || unavailable "cargo-fuzz still not runnable after install"
fi

build_log="$(mktemp)"
trap 'rm -f "$build_log"' EXIT
if ! cargo fuzz build >"$build_log" 2>&1; then
    tail -n 30 "$build_log" >&2
    # A compile error in our own code is a real failure, not a missing toolchain.
    if grep -qE -- "--> (fuzz_targets|src)/|--> \.\./src/" "$build_log"; then
        echo "run-ci.sh: the fuzz targets (or the crate) do not compile" >&2
        exit 1
    fi
    unavailable "cargo fuzz build failed (toolchain: $(rustc --version 2>/dev/null || echo none))"
fi

status=0
total_start=$(date +%s)
for t in "${TARGETS[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    log="artifacts/$t/ci.log"
    echo "== $t: ${SECONDS_PER_TARGET}s"
    if cargo fuzz run "$t" "corpus/$t" -- \
        -max_total_time="$SECONDS_PER_TARGET" -rss_limit_mb=2048 -timeout=10 \
        -print_final_stats=1 >"$log" 2>&1; then
        grep -E "^Done|stat::number_of_executed_units" "$log" | head -2
    else
        status=1
        echo "!! $t FAILED; last lines of $log:"
        grep -vE "^#[0-9]+" "$log" | tail -n 40
    fi
done
echo "run-ci.sh: $(( $(date +%s) - total_start ))s of fuzzing, status $status"
exit "$status"
