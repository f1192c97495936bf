#!/usr/bin/env bash
# Fuzzes one of Slipway's readers of untrusted input with libFuzzer + AddressSanitizer (Linux, Swift 6).
#
#   scripts/fuzz.sh TARGET [SECONDS] [JOBS]
#
# TARGET is one of:
#   pbxproj  the PBXProj reader and writers (Sources/PBXProj), seeded from the shared pbxproj corpus
#   plist    the XML and binary property-list reader (Sources/PropertyList), seeded with a few
#            property lists written here by Python's plistlib
#   zip      the .ipa (zip) directory reader and the Info.plist read through it
#            (Sources/Archives/Zip/ZipDirectory.swift, ZipSource.swift + Sources/PropertyList), seeded with a few
#            .ipa files written here by Python's zipfile
#   lanes    lane files: YAML with its budgets, the lane parser, expressions and templates,
#            validation against the built-in steps; seeded with the repository's lane files
#   xcode-log  the streaming xcodebuild log parser, renderer and summary; seeded with the
#            xcodebuild log fixtures of Tests/XcodeTests
#   p12      the PKCS#12 (.p12) reader with its key-derivation budget (Sources/Signing); seeded
#            with .p12 files that openssl writes here (password 'fuzz')
#
# pbxproj, plist and zip: the target's sources are compiled together with
# Fuzz/<Target>Fuzz/FuzzEntry.swift into one instrumented binary (`swiftc -sanitize=fuzzer,address
# -parse-as-library`). lanes and xcode-log need modules with dependencies of their own, so they
# are executables of the package Fuzz/SlipwayFuzz, which SwiftPM builds (release, with the same
# flags) in Fuzz/SlipwayFuzz/.build. Nothing of the corpus is committed. libFuzzer runs for SECONDS (default 600) with JOBS workers (default 1).
# Crashes are written to $FUZZ_WORK/crashes/.
# Environment: SLIPWAY_CORPUS (pbxproj only; default ../shared/corpus/pbxproj), FUZZ_WORK
# (default /tmp/slipway-TARGET-fuzz).
set -euo pipefail

target="${1:?usage: scripts/fuzz.sh pbxproj|plist|zip|lanes|xcode-log|p12 [SECONDS] [JOBS]}"
seconds="${2:-600}"
jobs="${3:-1}"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${FUZZ_WORK:-/tmp/slipway-$target-fuzz}"
mkdir -p "$work/seeds" "$work/crashes"

max_len=500000
case "$target" in
pbxproj)
    module=PBXProjFuzz
    sources=("$root"/Sources/PBXProj/*.swift "$root"/Fuzz/PBXProjFuzz/FuzzEntry.swift)
    flags=()
    corpus="${SLIPWAY_CORPUS:-$root/../shared/corpus/pbxproj}"
    if [ -d "$corpus/files" ]; then
        # Seeds up to 400 KB: smaller inputs mean many more executions per second.
        find "$corpus/files" "$corpus/odd/files" -name '*.pbxproj' -size -400k -exec cp {} "$work/seeds/" \;
    else
        echo "fuzz: no corpus at $corpus; starting from an empty seed directory" >&2
    fi
    ;;
plist)
    module=PropertyListFuzz
    sources=("$root"/Sources/PropertyList/*.swift "$root"/Fuzz/PropertyListFuzz/FuzzEntry.swift)
    flags=()
    max_len=65536
    python3 "$root/Fuzz/PropertyListFuzz/seeds.py" "$work/seeds"
    ;;
zip)
    module=ZipFuzz
    sources=("$root"/Sources/PropertyList/*.swift "$root"/Sources/Archives/Zip/ZipDirectory.swift "$root"/Sources/Archives/Zip/ZipSource.swift
             "$root"/Fuzz/ZipFuzz/FuzzEntry.swift)
    flags=(-I "$root/Sources/CZlib" -lz)
    max_len=65536
    python3 "$root/Fuzz/ZipFuzz/seeds.py" "$work/seeds"
    ;;
lanes|xcode-log|p12)
    case "$target" in lanes) product=LaneFuzz ;; xcode-log) product=XcodeLogFuzz ;; *) product=PKCS12Fuzz ;; esac
    max_len=20000
    if [ "$target" = p12 ]; then
        # Real exports: OpenSSL 3's default (PBES2, AES-256-CBC, HMAC-SHA256 MAC), and one with
        # small iteration counts so that the fuzzer's mutations run fast.
        seeds="$work/seeds"
        openssl req -x509 -newkey rsa:2048 -nodes -keyout "$seeds/key.pem" -out "$seeds/cert.pem" \
            -subj "/CN=Fuzz/OU=TEAMID1234" -days 1 2>/dev/null
        openssl pkcs12 -export -inkey "$seeds/key.pem" -in "$seeds/cert.pem" -passout pass:fuzz -out "$seeds/default.p12"
        openssl pkcs12 -export -inkey "$seeds/key.pem" -in "$seeds/cert.pem" -passout pass:fuzz -iter 1 -maciter \
            -out "$seeds/fast.p12" 2>/dev/null || true
        openssl ecparam -name prime256v1 -genkey -noout -out "$seeds/ec.pem"
        openssl req -x509 -key "$seeds/ec.pem" -out "$seeds/ec-cert.pem" -subj "/CN=Fuzz EC" -days 1 2>/dev/null
        openssl pkcs12 -export -inkey "$seeds/ec.pem" -in "$seeds/ec-cert.pem" -passout pass:fuzz -out "$seeds/ec.p12"
        rm -f "$seeds"/*.pem
    elif [ "$target" = lanes ]; then
        find "$root/lanes" "$root/templates" -name '*.yml' | while read -r file; do
            cp "$file" "$work/seeds/$(echo "$file" | tr / _)"
        done
    else
        find "$root/Tests/XcodeTests/Fixtures/logs" -name '*.log' -size -400k -exec cp {} "$work/seeds/" \;
    fi
    ;;
*)
    echo "fuzz: unknown target '$target' (pbxproj, plist, zip, lanes, xcode-log or p12)" >&2
    exit 2
    ;;
esac

leaks=()
if [ -n "${product:-}" ]; then
    echo "fuzz: building $product (Fuzz/SlipwayFuzz)" >&2
    package="$root/Fuzz/SlipwayFuzz"
    swift build --package-path "$package" -c release --product "$product" \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -g >&2
    cp "$(swift build --package-path "$package" -c release --show-bin-path)/$product" "$work/$target-fuzz"
    # Swift's lazily initialised globals (the step registry's descriptions) are never freed and
    # LeakSanitizer reports them; leaks are not what these targets look for.
    export ASAN_OPTIONS=detect_leaks=0
    leaks=(-detect_leaks=0)
else
    echo "fuzz: building $work/$target-fuzz" >&2
    swiftc -O -g -sanitize=fuzzer,address -parse-as-library -module-name "$module" "${flags[@]}" \
        "${sources[@]}" -o "$work/$target-fuzz"
fi

echo "fuzz: running for $seconds s over $work/seeds" >&2
cd "$work"
# Swift's own crash backtracer and AddressSanitizer get in each other's way.
export SWIFT_BACKTRACE=enable=no
parallel=()
if [ "$jobs" -gt 1 ]; then parallel=(-jobs="$jobs" -workers="$jobs"); fi  # logs then go to fuzz-N.log
exec "$work/$target-fuzz" "$work/seeds" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len="$max_len" \
    "${parallel[@]}" "${leaks[@]}" -artifact_prefix="$work/crashes/" -print_final_stats=1
