#!/usr/bin/env bash
# Regenerates the captured outputs in raw/ by running every scenario of the
# generator (panics also with RUST_BACKTRACE=1). The cases in cases/ pair
# these outputs with the site found by hand; rerun only on purpose.
set -euo pipefail
cd "$(dirname "$0")"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/tmp/errdex-corpus-target}"
(cd generator && cargo build -q)
bin="$CARGO_TARGET_DIR/debug/corpus-generator"
mkdir -p raw
for s in $(grep -o '^        "[a-z0-9_]*" =>' generator/src/main.rs | tr -d ' "=>'); do
  RUST_BACKTRACE=0 "$bin" "$s" > "raw/$s.txt" 2>&1 || true
  if grep -q "panicked at" "raw/$s.txt"; then
    RUST_BACKTRACE=1 "$bin" "$s" > "raw/${s}_bt.txt" 2>&1 || true
  fi
done
