// swift-tools-version:6.0
//
// Slipway: release lanes, Xcode group/directory sync and tool pins in one binary.
//
// Dependencies are kept lean on purpose, because every one costs CI build minutes on a 2-core
// machine: swift-argument-parser (the CLI), swift-mustache (changelog templates; no dependencies of
// its own, unlike Stencil), Yams (lane files and Toolfiles; it keeps line/column
// marks for error messages), swift-crypto (SHA-256 of downloaded archives and installed tools, and
// later ed25519 release signing: the same API on Linux and macOS, where CryptoKit alone would
// leave Linux out). No networking framework: HTTP is spoken through a small protocol in Basics,
// implemented over URLSession (URLSessionHTTP) on macOS and over libcurl, loaded at the first
// request, on Linux (FoundationNetworking would load libcurl and ~30 libraries behind it at
// every start-up); git goes through the system's libgit2.
import PackageDescription

let package = Package(
    name: "Slipway",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "slipway", targets: ["slipway"]),
        // git's merge driver for project.pbxproj on its own: `slipway xcodeproj merge` in a binary
        // that starts in a fraction of the time (issue 38), installed beside `slipway`.
        .executable(name: "slipway-merge-driver", targets: ["slipway-merge-driver"]),
        // The libraries, for Fuzz/SlipwayFuzz (its libFuzzer targets) and for Swift users who
        // build their own binary with extra steps. Networking: the system HTTP client such a
        // binary hands its lane workspace (StepServices), as the CLI does (URLSessionHTTP comes
        // with it on macOS; it is not listed, so that a Linux binary does not link FoundationNetworking).
        .library(name: "SlipwayLibraries", targets: ["Lanes", "Steps", "Xcode", "TestReports", "PBXProj", "YAMLSupport", "Networking", "Signing", "Archives", "Basics"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        // swift-certificates (X.509 certificates and PKCS#10 requests) and swift-asn1 (its DER
        // reader and writer), for code signing: certificate signing requests, PKCS#12 and the CMS
        // envelope of provisioning profiles. Both are Apple's, build on swift-crypto, and have no
        // other dependencies; hand-written ASN.1 would be more code to review than they are.
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
    ],
    targets: [
        // MARK: - Entry point and command line

        /// The `slipway` executable: a few lines that hand over to SlipwayCLI.
        .executableTarget(name: "slipway", dependencies: ["SlipwayCLI"]),
        /// `slipway-merge-driver BASE OURS THEIRS`: git's merge driver for project.pbxproj, the same
        /// function as `slipway xcodeproj merge` (XcodeprojMerge), in a binary that links only what
        /// the merge needs, so that git pays little for starting it on every merge: no libgit2 and
        /// its TLS and SSH libraries, no networking, no command tree (docs/pbxproj.md,
        /// "Performance"). Not linked statically per product: a target's `-static-stdlib` linker
        /// flag leaves CoreFoundation and ICU undefined, since the modules are compiled against
        /// the shared runtime; build with `--static-swift-stdlib` (as the release lane does).
        .executableTarget(name: "slipway-merge-driver", dependencies: ["XcodeprojMerge", "PBXProj", "Basics"]),
        /// The merge driver as a command (messages, exit statuses, git's line merge as the
        /// fallback), shared by `slipway xcodeproj merge` and `slipway-merge-driver`.
        .target(name: "XcodeprojMerge", dependencies: ["PBXProj", "Basics"]),
        /// Argument parsing and printing; every command makes one library call.
        .target(
            name: "SlipwayCLI",
            dependencies: [
                "XcodeprojMerge", "Lanes", "CIExport", "FastlaneImport", "Steps", "Preflight", "ProjectLint", "PBXProj", "Pins", "Publish", "Networking", "Git", "Sync", "Xcode", "TestReports", "AppleAPI", "Signing", "Transport", "Basics",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // MARK: - Lanes

        /// Lane files: parsing with source locations, validation, expressions, the runner,
        /// events, reports and the run journal. TestReports, not Xcode: the JUnit report needs only
        /// the test-case model that steps hand over.
        .target(name: "Lanes", dependencies: ["Steps", "TestReports", "Basics", "YAMLSupport", "Git",
                                            .product(name: "Crypto", package: "swift-crypto")]),
        /// `slipway ci export|check`: a lane as a GitHub Actions, GitLab CI or Buildkite pipeline,
        /// one job per step (YAML written by hand for byte-identical output; YAMLSupport for the
        /// lane's option trees). A target, not a package: it shares Lanes' types and release cycle.
        /// Pins: Slipway's own pin in Toolfile.lock, which every exported job installs.
        .target(name: "CIExport", dependencies: ["Lanes", "Steps", "Pins", "Archives", "Basics", "YAMLSupport",
                                               .product(name: "Crypto", package: "swift-crypto")]),
        /// The Step protocol, the registry of built-in steps and the external-plugin adapter.
        /// Signing: `signing.cleanup` removes the temporary keychain `signing.sync` made.
        .target(name: "Steps", dependencies: ["ProjectLint", "Preflight", "PBXProj", "Release", "Publish", "Sync", "Xcode", "TestReports", "AppleAPI", "Signing", "Transport", "Archives", "Basics", "Git"]),

        // MARK: - Domain libraries

        /// Tool pins: Toolfile and Toolfile.lock, resolve/install/verify, and offline audits of
        /// Package.resolved, Podfile.lock, Cartfile.resolved and Gemfile.lock. PBXProj: the package
        /// requirements of Xcode projects, checked against Xcode's Package.resolved. Archives: a
        /// downloaded zip's directory is read (names, sizes, layout) before `unzip` unpacks it.
        .target(
            name: "Pins",
            dependencies: ["Git", "PBXProj", "Archives", "Basics", "YAMLSupport", "Yams", .product(name: "Crypto", package: "swift-crypto")]
        ),

        /// Releases: conventional commits, the next semantic version, changelog entries through
        /// Mustache templates, and writing the version where a project keeps it.
        .target(
            name: "Release",
            dependencies: ["Git", "PBXProj", "Basics", .product(name: "Mustache", package: "swift-mustache")]
        ),
        /// Publishing: reproducible archives (their layout and digest; the formats are Archives'),
        /// SHA256SUMS, signing (signify ed25519, gpg, codesign)
        /// and uploaders (directory, S3, GitHub Releases, HTTP, DeployGate, Firebase App
        /// Distribution) over Transport's retrying client and S3Client. `_CryptoExtras` (swift-crypto's own package) gives RS256
        /// (RSA PKCS#1 v1.5 with SHA-256), which Google's OAuth JWT-bearer grant requires of a
        /// service account's key; `Crypto` has no RSA.
        .target(
            name: "Publish",
            dependencies: ["Transport", "Archives", "Basics", .product(name: "Crypto", package: "swift-crypto"),
                           .product(name: "_CryptoExtras", package: "swift-crypto")]
        ),
        /// App Store Connect: API keys and their ES256 tokens, a JSON:API client with rate-limit,
        /// retry and role-aware errors, app look-up and build uploads (the .ipa's Info.plist read
        /// through Archives' zip reader). Transport: RetryPolicy (backoff with jitter, injected
        /// sleep) and, for the Notary API, S3Client.
        .target(
            name: "AppleAPI",
            dependencies: ["Transport", "Archives", "PropertyList", "Basics", .product(name: "Crypto", package: "swift-crypto")]
        ),
        /// Shared code signing storage: Slipway's encrypted file format (scrypt + AES-256-GCM),
        /// fastlane match's v2/v1 encryption, match's storage layout, and the directory, git and
        /// S3 backends. `_CryptoExtras` gives scrypt, PBKDF2 and AES-CBC (match's v1); Git (libgit2
        /// clone/commit/push) and Transport (S3Client, RetryPolicy) are used by the backends only.
        /// X509 and SwiftASN1: keys, certificate signing requests, PKCS#12 and provisioning profiles.
        /// AppleAPI: the certificates, profiles, bundle ids and devices that `signing sync` keeps.
        .target(
            name: "Signing",
            dependencies: ["Git", "Transport", "AppleAPI", "PropertyList", "Basics", .product(name: "Crypto", package: "swift-crypto"),
                           .product(name: "_CryptoExtras", package: "swift-crypto"),
                           .product(name: "X509", package: "swift-certificates"),
                           .product(name: "SwiftASN1", package: "swift-asn1")]
        ),
        /// The system's zlib (apt `zlib1g-dev`, brew `zlib`), for Archives' gzip and zip deflate and inflate.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        /// Xcode builds: xcodebuild log formatting, result-bundle reading, schemes, destinations,
        /// export options and Xcode selection (plain parsing, testable on Linux).
        .target(name: "Xcode", dependencies: ["PBXProj", "PropertyList", "TestReports", "Basics"]),
        /// The JUnit test-case model and its XML writer: Xcode fills it from logs and result
        /// bundles, steps hand it to the lane, Lanes writes the lane's report. A target of its own,
        /// not Xcode's, so that Lanes does not depend on Xcode; not in Basics, which holds side
        /// effects behind protocols, not report formats.
        .target(name: "TestReports", dependencies: ["Basics"]),
        /// `slipway init --from-fastlane`: fastlane's Fastfile, Appfile and Matchfile read without
        /// running Ruby (a tokenizer and statement reader for the subset they use), and their lanes
        /// translated into Slipway lanes. Xcode: the project survey that fills in what fastlane
        /// leaves to Xcode (schemes, bundle ids); Release: where the version lives, read as
        /// version.bump writes it (xcconfig chains).
        .target(name: "FastlaneImport", dependencies: ["Xcode", "Release", "PBXProj", "Basics"]),
        /// `slipway preflight` and `appstore.preflight`: what App Store Connect would refuse, found
        /// before the archive. One file per rule behind the PreflightRule protocol, over one read of
        /// the project (Release's setting lookup and version reader, PropertyList), the signing
        /// profiles (Signing), the listing checks and, with a key, App Store Connect (AppleAPI).
        .target(name: "Preflight", dependencies: ["Release", "PBXProj", "PropertyList", "AppleAPI", "Signing", "Basics"]),
        /// Group/directory sync: plans moves from the Xcode group tree and applies them as a
        /// journaled transaction (recoverable, git-staged as renames).
        .target(
            name: "Sync",
            dependencies: ["PBXProj", "Git", "Basics", .product(name: "Crypto", package: "swift-crypto")]
        ),
        /// `slipway xcodeproj lint`: one file per rule behind the LintRule protocol, the
        /// `.slipway/lint.yml` configuration, human/JSON/SARIF output and safe fixes. Sync: its
        /// planner (a pure function) finds groups whose folder does not match and unreferenced files.
        .target(name: "ProjectLint", dependencies: ["PBXProj", "Sync", "Basics", "YAMLSupport", "Git"]),
        /// Lossless reader/writer for Xcode `project.pbxproj` files and a typed model over it.
        .target(name: "PBXProj"),
        /// A Swift wrapper over libgit2: repositories, status, tags, commits.
        .target(name: "Git", dependencies: ["CLibgit2", "Basics"]),
        /// The system's libgit2 (apt `libgit2-dev`, brew `libgit2`), with a few C shims, and
        /// zlib (which libgit2 depends on) for reading commits straight from pack files.
        .systemLibrary(
            name: "CLibgit2",
            pkgConfig: "libgit2",
            providers: [.apt(["libgit2-dev"]), .brew(["libgit2"])]
        ),

        // MARK: - Foundations

        /// XML and binary property lists read within a budget (values, depth, bytes, with a binary
        /// plist's shared references counted each time they are used): Info.plists, export
        /// options and provisioning profiles come from untrusted checkouts and archives, and
        /// Foundation's reader cannot be bounded. Depends on nothing, so it fuzzes on its own.
        .target(name: "PropertyList"),
        /// Zip and tar in one place, as swift-package-manager keeps its archivers in Basics: the
        /// zip reader (a central directory read within limits, with checked arithmetic; fuzzed)
        /// that the .ipa upload (AppleAPI) and `tools install` (Pins) use, and the reproducible
        /// tar.gz and zip writers of the `archive` step (Publish). Depends on zlib alone, so it
        /// fuzzes on its own.
        .target(name: "Archives", dependencies: ["CZlib"]),
        /// Side effects behind protocols: file system, processes, environment, terminal,
        /// diagnostics and secret redaction.
        .target(name: "Basics"),
        /// YAML read through Yams into trees whose every node knows its line and column, with
        /// libyaml's errors as diagnostics: lane files (Lanes) and Toolfiles (Pins).
        .target(name: "YAMLSupport", dependencies: ["Basics", "Yams"]),
        /// Transport for every module that speaks HTTP: RetryPolicy and RetryingHTTPClient (backoff
        /// with jitter over Basics' HTTPClient protocol), S3Client and SigV4 signing. Publish's
        /// uploaders, AppleAPI (App Store Connect, and S3 for the Notary API) and Signing's S3
        /// storage all use it, as swift-package-manager keeps HTTPClient and its retries together
        /// in Basics. Crypto: SHA-256 and HMAC for SigV4. Not the concrete client (Networking).
        .target(name: "Transport", dependencies: ["Basics", .product(name: "Crypto", package: "swift-crypto")]),
        /// Basics' HTTPClient as `SystemHTTPClient`: URLSession (URLSessionHTTP) on macOS, libcurl
        /// (through CCurl) on Linux. URLSessionHTTP is linked only on macOS: importing
        /// FoundationNetworking on Linux would make the `slipway` binary load libFoundationNetworking,
        /// libcurl and the libraries behind them at every start, HTTP or not.
        .target(name: "Networking", dependencies: ["Basics",
                                                   .target(name: "CCurl", condition: .when(platforms: [.linux])),
                                                   .target(name: "URLSessionHTTP", condition: .when(platforms: [.macOS]))]),
        /// `URLSessionHTTPClient`, the client Mac users run: a target of its own so that it builds
        /// and is tested on Linux (NetworkingTests runs one conformance suite against it and curl)
        /// without the Linux binary linking FoundationNetworking.
        .target(name: "URLSessionHTTP", dependencies: ["Basics"]),
        /// libcurl's easy interface, loaded with dlopen at the first request: no build-time
        /// dependency on libcurl, and no start-up cost for commands that never use HTTP.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),

        // MARK: - Benchmarks and tests

        /// `slipway-bench`: prints medians for the performance targets of each area.
        .executableTarget(
            name: "slipway-bench",
            dependencies: ["Lanes", "Steps", "Preflight", "PBXProj", "ProjectLint", "Pins", "Publish", "Networking", "Sync", "Xcode", "AppleAPI", "Signing", "Transport", "Basics", "TestSupport",
                           .product(name: "Crypto", package: "swift-crypto")]
        ),
        /// STAND-IN, for tests only (not a product): `slipway` reporting macOS on Linux, so that the
        /// GitHub Actions simulator's `runs-on: macos-*` jobs run macOS-only steps against stand-in
        /// xcodebuild/xcrun/security on PATH. The platform is set in its code, never from input.
        .executableTarget(name: "slipway-macos-standin", dependencies: ["SlipwayCLI", "Steps"]),
        /// Fixtures, fakes and helpers shared by the tests.
        /// X509 and SwiftASN1: ProvisioningProfileBuilder makes CMS-signed profiles with a test CA.
        /// YAMLSupport: GitHubActionsSimulator reads workflow files with line and column.
        .target(name: "TestSupport", dependencies: ["Basics", "Git", "YAMLSupport",
                                                    .product(name: "Crypto", package: "swift-crypto"),
                                                    .product(name: "_CryptoExtras", package: "swift-crypto"),
                                                    .product(name: "X509", package: "swift-certificates"),
                                                    .product(name: "SwiftASN1", package: "swift-asn1")]),
        /// The `dedicatedThreads` suite trait: tests run on threads of their own, off Swift
        /// concurrency's cooperative pool (kept apart from TestSupport, which the benchmark links
        /// and which must not link the Testing library).
        .target(name: "TestThreads"),
        .testTarget(name: "PropertyListTests", dependencies: ["PropertyList", "TestSupport", "TestThreads"]),
        .testTarget(name: "BasicsTests", dependencies: ["Basics", "TestSupport", "TestThreads"]),
        // Both HTTP clients (curl, URLSession) through one conformance suite on loopback servers.
        .testTarget(name: "NetworkingTests", dependencies: ["Networking", "URLSessionHTTP", "Basics", "TestSupport", "TestThreads",
                                                           .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "GitTests", dependencies: ["Git", "TestSupport", "TestThreads"]),
        .testTarget(name: "ReleaseTests", dependencies: ["Release", "TestSupport", "TestThreads"]),
        // HostileArchive's zips and real tools' archives read by the zip reader; the writers' byte layout.
        .testTarget(name: "ArchivesTests", dependencies: ["Archives", "TestSupport", "TestThreads"]),
        .testTarget(name: "PublishTests", dependencies: ["Publish", "Archives", "Transport", "Networking", "TestSupport", "TestThreads"]),
        // Fixtures/listing/: real metadata folders (deliver's layout) from public projects, read from the source tree.
        .testTarget(name: "AppleAPITests", dependencies: ["AppleAPI", "Transport", "Networking", "Signing", "TestSupport", "TestThreads",
                                                          .product(name: "Crypto", package: "swift-crypto")], exclude: ["Fixtures"]),
        .testTarget(name: "SigningTests", dependencies: ["Signing", "AppleAPI", "Transport", "Networking", "Git", "TestSupport", "TestThreads",
                                                         .product(name: "Crypto", package: "swift-crypto"),
                                                         .product(name: "_CryptoExtras", package: "swift-crypto"),
                                                         .product(name: "X509", package: "swift-certificates"),
                                                         .product(name: "SwiftASN1", package: "swift-asn1")]),
        .testTarget(name: "ProjectLintTests", dependencies: ["ProjectLint", "PBXProj", "Sync", "Basics", "TestSupport", "TestThreads"]),
        .testTarget(name: "PBXProjTests", dependencies: ["PBXProj", "TestSupport", "TestThreads"]),
        .testTarget(name: "YAMLSupportTests", dependencies: ["YAMLSupport", "Basics", "TestThreads"]),
        // Fixtures/: real lockfiles from public projects, read from the source tree.
        .testTarget(name: "PinsTests", dependencies: ["Pins", "Networking", "TestSupport", "TestThreads"], exclude: ["Fixtures"]),
        .testTarget(name: "SyncTests", dependencies: ["Sync", "Steps", "PBXProj", "Git", "Networking", "TestSupport", "TestThreads"]),
        .testTarget(name: "StepsTests", dependencies: ["Steps", "ProjectLint", "Publish", "AppleAPI", "Networking", "TestSupport", "TestThreads",
                                                       .product(name: "Crypto", package: "swift-crypto")]),
        // Fixtures/: stand-in xcodebuild and xcrun scripts (labelled as such) for the xcode.* steps.
        // Crypto: App Store Connect keys for the appstore.* lane tests.
        .testTarget(name: "LanesTests", dependencies: ["Lanes", "Steps", "Publish", "TestReports", "Networking", "TestSupport", "TestThreads",
                                                       .product(name: "Crypto", package: "swift-crypto")], exclude: ["Fixtures"]),
        // Fixtures/ci/: golden pipelines, compared byte for byte and run through actionlint and
        // check-jsonschema when they are installed.
        // Yams: the hostile-lane tests read the pipelines back with a YAML parser.
        .testTarget(name: "CIExportTests", dependencies: ["CIExport", "Lanes", "Steps", "Pins", "Basics", "TestSupport", "TestThreads", "Yams"],
                    exclude: ["Fixtures"]),
        // Fixtures/: xcodebuild logs and xcresulttool/xccov JSON written from the documented formats.
        .testTarget(name: "FastlaneImportTests", dependencies: ["FastlaneImport", "TestSupport", "TestThreads"]),
        .testTarget(name: "XcodeTests", dependencies: ["Xcode", "TestReports", "TestSupport", "TestThreads"], exclude: ["Fixtures"]),
        // Crypto: App Store Connect keys made by the appstore command's tests.
        .testTarget(name: "SlipwayCLITests", dependencies: ["SlipwayCLI", "ProjectLint", "Signing", "TestSupport", "TestThreads",
                                                            .product(name: "Crypto", package: "swift-crypto")], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
