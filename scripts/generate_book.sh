#!/bin/sh
# Generates or resumes the Connect-Four opening book (see examples/book_gen.rs), at the
# lowest CPU priority, then assembles python/inarow/data/connect4-7x6.book.zst once the level
# is complete. Arguments go to book_gen, e.g.:
#   scripts/generate_book.sh --ply 12 --workers 2 --tt-mib 1024
#   scripts/generate_book.sh check --sample 200
#   scripts/generate_book.sh estimate --ply 12
# Interrupt with Ctrl-C (or kill -INT / -TERM): the checkpoint in scripts/book-state/ is
# saved and the same command resumes from it.
set -eu
cd "$(dirname "$0")/.."
cargo build --release --quiet --example book_gen
# A private copy, so that rebuilding during a long run cannot touch the running binary.
cp target/release/examples/book_gen target/book_gen.running
exec nice -n 19 target/book_gen.running "$@"
