#!/bin/sh
# run-fuzz.sh FUZZER SOURCE-ROOT WORK-DIR SECONDS: runs a libFuzzer target for SECONDS on a
# seed corpus of the repository's Python files (test cases and conformance scripts). New
# inputs go to WORK-DIR/corpus (kept between runs), crash/leak reproducers to WORK-DIR/.
set -eu
fuzzer=$1 root=$2 work=$3 seconds=$4

mkdir -p "$work/corpus" "$work/seeds"
find "$root/tests/script/cases" "$root/tests/conformance" -name '*.py' | while read -r f; do
  rel=${f#"$root"/}
  cp "$f" "$work/seeds/$(echo "$rel" | tr / _)"
done

# LeakSanitizer stays on (the test environment elsewhere turns it off).
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:symbolize=1
export ASAN_OPTIONS
exec "$fuzzer" -max_total_time="$seconds" -timeout=20 -max_len=16384 \
  -dict="$root/tests/fuzz/python.dict" -artifact_prefix="$work/" -print_final_stats=1 \
  "$work/corpus" "$work/seeds"
