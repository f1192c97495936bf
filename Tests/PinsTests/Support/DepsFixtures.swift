import Foundation
@testable import Pins
import TestSupport

/// A project with all four kinds of lockfile, written for these tests after the published
/// formats, every one of them consistent with its manifest.
enum DepsFixtures {
    static let packageSwift = """
        // swift-tools-version:5.9
        import PackageDescription

        let package = Package(
            name: "App",
            dependencies: [
                .package(url: "https://github.com/apple/swift-argument-parser", from: "1.2.0"),
                .package(url: "https://github.com/jpsim/Yams.git", exact: "5.0.6"),
            ],
            targets: [.executableTarget(name: "App", dependencies: [
                .product(name: "ArgumentParser", package: "swift-argument-parser"), "Yams",
            ])]
        )

        """

    static let parserRevision = "c8ed701b513cf5177118a175d85fbbbcd707ab41"
    static let yamsRevision = "0d9ee7ea8c4ebd4a489ad7a73d5c6cad55d6fed3"

    static func resolvedV3(originHash: String, parserVersion: String = "1.3.0") -> String {
        """
        {
          "originHash" : "\(originHash)",
          "pins" : [
            {
              "identity" : "swift-argument-parser",
              "kind" : "remoteSourceControl",
              "location" : "https://github.com/apple/swift-argument-parser",
              "state" : {
                "revision" : "\(parserRevision)",
                "version" : "\(parserVersion)"
              }
            },
            {
              "identity" : "yams",
              "kind" : "remoteSourceControl",
              "location" : "https://github.com/jpsim/Yams.git",
              "state" : {
                "revision" : "\(yamsRevision)",
                "version" : "5.0.6"
              }
            }
          ],
          "version" : 3
        }

        """
    }

    static let resolvedV2 = """
        {
          "pins" : [
            {
              "identity" : "yams",
              "kind" : "remoteSourceControl",
              "location" : "https://github.com/jpsim/Yams.git",
              "state" : {
                "revision" : "\(yamsRevision)",
                "version" : "5.0.6"
              }
            }
          ],
          "version" : 2
        }

        """

    static let resolvedV1 = """
        {
          "object": {
            "pins": [
              {
                "package": "Yams",
                "repositoryURL": "https://github.com/jpsim/Yams.git",
                "state": {
                  "branch": null,
                  "revision": "\(yamsRevision)",
                  "version": "5.0.6"
                }
              }
            ]
          },
          "version": 1
        }

        """

    static func workspaceState(parserRevision: String = parserRevision) -> String {
        """
        {
          "object" : {
            "artifacts" : [],
            "dependencies" : [
              {
                "basedOn" : null,
                "packageRef" : {
                  "identity" : "swift-argument-parser",
                  "kind" : "remoteSourceControl",
                  "location" : "https://github.com/apple/swift-argument-parser",
                  "name" : "swift-argument-parser"
                },
                "state" : {
                  "checkoutState" : { "revision" : "\(parserRevision)", "version" : "1.3.0" },
                  "name" : "sourceControlCheckout"
                },
                "subpath" : "swift-argument-parser"
              }
            ],
            "prebuilts" : []
          },
          "version" : 7
        }

        """
    }

    static let podfile = """
        platform :ios, '15.0'

        target 'App' do
          use_frameworks!
          pod 'Alamofire', '~> 5.8'
          pod 'SwiftLint', '0.54.0'
          pod 'Firebase/Analytics'
          pod 'LocalKit', :path => '../LocalKit'
        end

        """

    static func podfileLock(podfileChecksum: String, alamofire: String = "5.9.1", cocoapods: String = "1.15.2") -> String {
        """
        PODS:
          - Alamofire (\(alamofire))
          - Firebase/Analytics (10.24.0):
            - Firebase/Core
          - Firebase/Core (10.24.0):
            - FirebaseAnalytics (~> 10.24.0)
          - FirebaseAnalytics (10.24.0)
          - LocalKit (0.1.0)
          - SwiftLint (0.54.0)

        DEPENDENCIES:
          - Alamofire (~> 5.8)
          - Firebase/Analytics
          - LocalKit (from `../LocalKit`)
          - SwiftLint (= 0.54.0)

        SPEC REPOS:
          trunk:
            - Alamofire
            - Firebase
            - FirebaseAnalytics
            - SwiftLint

        EXTERNAL SOURCES:
          LocalKit:
            :path: "../LocalKit"

        SPEC CHECKSUMS:
          Alamofire: 0aa4d8e2a31a6a5e1de1e0d5b2f0d4a2a63c1e56
          Firebase: 91fefd38712feb9186ea8996af6cbdef41473442
          FirebaseAnalytics: b5efc493eb0f40ec560b04a472e3e1a15d39ca13
          LocalKit: 5a8b2a4c4e0d1c2b3a4f5e6d7c8b9a0f1e2d3c4b
          SwiftLint: c1de071d9d08c8aba837545a5f5aee2b8ba6b4c5

        PODFILE CHECKSUM: \(podfileChecksum)

        COCOAPODS: \(cocoapods)

        """
    }

    static let cartfile = """
        # Runtime dependencies
        github "ReactiveCocoa/ReactiveSwift" ~> 7.1
        github "Quick/Nimble" == 13.2.1
        git "https://example.com/private/Toolkit.git" "main"
        binary "https://example.com/Frameworks/Analytics.json" >= 2.0
        github "example/Early" ~> 0.4

        """

    static let cartfilePrivate = "github \"Quick/Quick\" ~> 7.0 # tests only\n"

    static func cartfileResolved(nimble: String = "v13.2.1", early: String = "0.4.2") -> String {
        """
        binary "https://example.com/Frameworks/Analytics.json" "2.3.0"
        git "https://example.com/private/Toolkit.git" "3f9d3c0d9a1e4b5c6d7e8f90123456789abcdef0"
        github "Quick/Nimble" "\(nimble)"
        github "Quick/Quick" "v7.4.0"
        github "ReactiveCocoa/ReactiveSwift" "7.1.1"
        github "example/Early" "\(early)"

        """
    }

    static func gemfileLock(platforms: [String] = ["arm64-darwin-23", "x86_64-linux", "aarch64-linux", "x86_64-darwin-22"],
                            cocoapods: String = "1.15.2", xcprettyChecksum: Bool = true) -> String {
        let sums = [
            ("addressable (2.8.6)", "798f6af3556641a7619bad1dce04cdb6eb44b0216a991b0396ea7339276f2b47"),
            ("base64 (0.2.0)", "0f25e9b21a02a0cc0cea8ef92b2041035d39350946e8789c562b2d1a3da01507"),
            ("cocoapods (\(cocoapods))", "08bbe0ee3d2b5f60aa6d1d7e42e1e3d5c9b3d5a58c0e1d5a7d8e5a0a1b2c3d4e"),
            ("public_suffix (5.0.5)", "72c340218bb384610536919988705cc29e09749c0021fd7005f715c7e5dfc493"),
            ("rouge (2.0.7)", "5a3df1f2b3ef1e8a0e0d2a3ee1fbbda9b4e1d7bd1c0b1b2f0d2f8c79c0c5c8a9"),
        ]
        var checksums = sums.map { "  \($0.0) sha256=\($0.1)" }
        checksums.append(xcprettyChecksum ? "  xcpretty (0.3.0) sha256=a1f3c2e4b5d6c7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2"
                                          : "  xcpretty (0.3.0)")
        return """
            GEM
              remote: https://rubygems.org/
              specs:
                addressable (2.8.6)
                  public_suffix (>= 2.0.2, < 6.0)
                base64 (0.2.0)
                cocoapods (\(cocoapods))
                  addressable (~> 2.8)
                public_suffix (5.0.5)
                rouge (2.0.7)
                xcpretty (0.3.0)
                  rouge (~> 2.0.7)

            PLATFORMS
            \(platforms.map { "  " + $0 }.joined(separator: "\n"))

            DEPENDENCIES
              cocoapods (~> 1.15)
              xcpretty

            CHECKSUMS
            \(checksums.joined(separator: "\n"))

            BUNDLED WITH
               2.5.6

            """
    }

    /// Writes the whole consistent project.
    static func write(into project: PinsProject) throws {
        try project.write("Package.swift", packageSwift)
        try project.write("Package.resolved", resolvedV3(originHash: Digest256.hex(Array(packageSwift.utf8))))
        try project.write(".build/workspace-state.json", workspaceState())
        try project.write("Podfile", podfile)
        let lock = podfileLock(podfileChecksum: try sha1(of: project.path + "/Podfile"))
        try project.write("Podfile.lock", lock)
        try project.write("Pods/Manifest.lock", lock)
        try project.write("Cartfile", cartfile)
        try project.write("Cartfile.private", cartfilePrivate)
        try project.write("Cartfile.resolved", cartfileResolved())
        try project.write("Gemfile.lock", gemfileLock())
    }

    /// SHA-1 by the system's `sha1sum`, as an independent check of what Slipway computes.
    static func sha1(of path: String) throws -> String {
        String(try sh("/usr/bin/env", ["sha1sum", path]).prefix(40))
    }
}
