#!/usr/bin/env bash
# Fuzzes the PBXProj reader and writers with libFuzzer + AddressSanitizer (Linux, Swift 6).
#
#   scripts/fuzz-pbxproj.sh [SECONDS] [JOBS]
#
# Builds Sources/PBXProj/*.swift together with Fuzz/PBXProjFuzz/FuzzEntry.swift into one
# instrumented binary, seeds a corpus under /tmp from the shared pbxproj corpus (never committed)
# and runs libFuzzer for SECONDS (default 600). Crashes are written to $WORK/crashes/.
# Environment: SLIPWAY_CORPUS (default ../shared/corpus/pbxproj), FUZZ_WORK (default
# /tmp/slipway-pbxproj-fuzz).
set -euo pipefail

seconds="${1:-600}"
jobs="${2:-1}"
root="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${SLIPWAY_CORPUS:-$root/../shared/corpus/pbxproj}"
work="${FUZZ_WORK:-/tmp/slipway-pbxproj-fuzz}"

mkdir -p "$work/seeds" "$work/crashes"
if [ -d "$corpus/files" ]; then
    # Seeds up to 400 KB: smaller inputs mean many more executions per second.
    find "$corpus/files" "$corpus/odd/files" -name '*.pbxproj' -size -400k -exec cp {} "$work/seeds/" \;
else
    echo "fuzz-pbxproj: no corpus at $corpus; starting from an empty seed directory" >&2
fi

echo "fuzz-pbxproj: building $work/pbxproj-fuzz" >&2
swiftc -O -g -sanitize=fuzzer,address -parse-as-library -module-name PBXProjFuzz \
    "$root"/Sources/PBXProj/*.swift "$root"/Fuzz/PBXProjFuzz/FuzzEntry.swift \
    -o "$work/pbxproj-fuzz"

echo "fuzz-pbxproj: running for $seconds s over $work/seeds" >&2
cd "$work"
# Swift's own crash backtracer and AddressSanitizer get in each other's way.
export SWIFT_BACKTRACE=enable=no
parallel=()
if [ "$jobs" -gt 1 ]; then parallel=(-jobs="$jobs" -workers="$jobs"); fi  # logs then go to fuzz-N.log
exec "$work/pbxproj-fuzz" "$work/seeds" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=500000 \
    "${parallel[@]}" -artifact_prefix="$work/crashes/" -print_final_stats=1
