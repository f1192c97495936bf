#!/usr/bin/env bash
# Fuzzes the PBXProj reader and writers with libFuzzer + AddressSanitizer (Linux, Swift 6).
#
#   scripts/fuzz-pbxproj.sh [SECONDS] [JOBS]
#
# Kept for existing habits and CI jobs: the same as `scripts/fuzz.sh pbxproj [SECONDS] [JOBS]`
# (Sources/PBXProj/*.swift + Fuzz/PBXProjFuzz/FuzzEntry.swift, seeds from the shared pbxproj
# corpus, never committed). Environment: SLIPWAY_CORPUS (default ../shared/corpus/pbxproj),
# FUZZ_WORK (default /tmp/slipway-pbxproj-fuzz).
set -euo pipefail
exec "$(cd "$(dirname "$0")" && pwd)/fuzz.sh" pbxproj "$@"
