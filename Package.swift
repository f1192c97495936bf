// swift-tools-version:6.0
//
// Slipway: release lanes, Xcode group/directory sync and tool pins in one binary.
//
// Dependencies are kept lean on purpose, because every one costs CI build minutes on a 2-core
// machine: swift-argument-parser (the CLI), Yams (lane files and Toolfiles; it keeps line/column
// marks for error messages). No networking framework: HTTP is spoken through a small client in
// Basics, and git through the system's libgit2.
import PackageDescription

let package = Package(
    name: "Slipway",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "slipway", targets: ["slipway"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // MARK: - Entry point and command line

        /// The `slipway` executable: a few lines that hand over to SlipwayCLI.
        .executableTarget(name: "slipway", dependencies: ["SlipwayCLI"]),
        /// Argument parsing and printing; every command makes one library call.
        .target(
            name: "SlipwayCLI",
            dependencies: [
                "Lanes", "Steps", "PBXProj", "Git", "Basics",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // MARK: - Lanes

        /// Lane files: parsing with source locations, validation, expressions, the runner,
        /// events, reports and the run journal.
        .target(name: "Lanes", dependencies: ["Steps", "Basics", "Yams"]),
        /// The Step protocol, the registry of built-in steps and the external-plugin adapter.
        .target(name: "Steps", dependencies: ["Basics", "Git"]),

        // MARK: - Domain libraries

        /// Lossless reader/writer for Xcode `project.pbxproj` files and a typed model over it.
        .target(name: "PBXProj"),
        /// A Swift wrapper over libgit2: repositories, status, tags, commits.
        .target(name: "Git", dependencies: ["CLibgit2", "Basics"]),
        /// The system's libgit2 (apt `libgit2-dev`, brew `libgit2`), with a few C shims.
        .systemLibrary(
            name: "CLibgit2",
            pkgConfig: "libgit2",
            providers: [.apt(["libgit2-dev"]), .brew(["libgit2"])]
        ),

        // MARK: - Foundations

        /// Side effects behind protocols: file system, processes, environment, terminal,
        /// diagnostics and secret redaction.
        .target(name: "Basics"),

        // MARK: - Benchmarks and tests

        /// `slipway-bench`: prints medians for the performance targets of each area.
        .executableTarget(
            name: "slipway-bench",
            dependencies: ["Lanes", "Steps", "PBXProj", "Basics"]
        ),
        /// Fixtures, fakes and helpers shared by the tests.
        .target(name: "TestSupport", dependencies: ["Basics", "Git"]),
        .testTarget(name: "BasicsTests", dependencies: ["Basics", "TestSupport"]),
        .testTarget(name: "GitTests", dependencies: ["Git", "TestSupport"]),
        .testTarget(name: "PBXProjTests", dependencies: ["PBXProj", "TestSupport"]),
        .testTarget(name: "StepsTests", dependencies: ["Steps", "TestSupport"]),
        .testTarget(name: "LanesTests", dependencies: ["Lanes", "Steps", "TestSupport"]),
        .testTarget(name: "SlipwayCLITests", dependencies: ["SlipwayCLI", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
