// swift-tools-version: 6.0
// libFuzzer targets over Slipway's libraries. Not part of the product or of `swift test`:
// scripts/fuzz.sh builds one with `-sanitize=fuzzer,address -parse-as-library` (libFuzzer
// supplies `main`) and runs it. Each target is one file whose `LLVMFuzzerTestOneInput` checks the
// library's promises, so that a broken promise is a crash the fuzzer reports.
import PackageDescription

let package = Package(
    name: "SlipwayFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "Slipway", path: "../..")],
    targets: [
        // Lane files: YAML reading with its budgets, the lane parser, expressions and templates,
        // validation against the built-in steps.
        .executableTarget(name: "LaneFuzz", dependencies: [.product(name: "SlipwayLibraries", package: "Slipway")]),
        // The streaming xcodebuild log parser, renderer and summary.
        .executableTarget(name: "XcodeLogFuzz", dependencies: [.product(name: "SlipwayLibraries", package: "Slipway")]),
        // The PKCS#12 (.p12) reader with its key-derivation budget (Signing).
        .executableTarget(name: "PKCS12Fuzz", dependencies: [.product(name: "SlipwayLibraries", package: "Slipway")]),
    ],
    swiftLanguageModes: [.v6]
)
