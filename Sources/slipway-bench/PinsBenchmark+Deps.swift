import Foundation

/// A project with Package.resolved (and .build/workspace-state.json), Podfile.lock (and
/// Pods/Manifest.lock), Cartfile.resolved and Gemfile.lock of realistic size, all consistent, for
/// timing `slipway deps verify`.
enum DepsBenchmarkProject {
    static func write(to folder: String) throws {
        let manager = FileManager.default
        try manager.createDirectory(atPath: folder + "/.build", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: folder + "/Pods", withIntermediateDirectories: true)
        let packages = (1...30).map { "package-\($0)" }
        var manifest = "// swift-tools-version:5.9\nimport PackageDescription\n\nlet package = Package(\n    name: \"App\",\n    dependencies: [\n"
        for name in packages { manifest += "        .package(url: \"https://example.com/\(name).git\", from: \"1.0.0\"),\n" }
        manifest += "    ],\n    targets: [.target(name: \"App\")]\n)\n"
        try write(manifest, folder + "/Package.swift")
        let pins = packages.enumerated().map { index, name in
            """
                {
                  "identity" : "\(name)",
                  "kind" : "remoteSourceControl",
                  "location" : "https://example.com/\(name).git",
                  "state" : {
                    "revision" : "\(revision(index))",
                    "version" : "1.\(index).0"
                  }
                }
            """
        }
        try write("{\n  \"originHash\" : \"\(try digest("256", folder + "/Package.swift"))\",\n  \"pins\" : [\n"
                  + pins.joined(separator: ",\n") + "\n  ],\n  \"version\" : 3\n}\n", folder + "/Package.resolved")
        let checkouts = packages.enumerated().map { index, name in
            "{\"basedOn\":null,\"packageRef\":{\"identity\":\"\(name)\",\"kind\":\"remoteSourceControl\","
                + "\"location\":\"https://example.com/\(name).git\",\"name\":\"\(name)\"},\"state\":{\"checkoutState\":"
                + "{\"revision\":\"\(revision(index))\",\"version\":\"1.\(index).0\"},\"name\":\"sourceControlCheckout\"},"
                + "\"subpath\":\"\(name)\"}"
        }
        try write("{\"object\":{\"artifacts\":[],\"dependencies\":[\(checkouts.joined(separator: ","))],\"prebuilts\":[]},\"version\":7}\n",
                  folder + "/.build/workspace-state.json")
        try writePods(folder)
        try writeCarthage(folder)
        try writeGems(folder)
    }

    static func revision(_ index: Int) -> String {
        String(repeating: String(format: "%02x", index % 256), count: 20)
    }

    static func writePods(_ folder: String) throws {
        let pods = (1...40).map { "Pod\($0)" }
        try write("platform :ios, '15.0'\ntarget 'App' do\n" + pods.map { "  pod '\($0)', '~> 2.0'\n" }.joined() + "end\n",
                  folder + "/Podfile")
        var lock = "PODS:\n" + pods.map { "  - \($0) (2.1.0)\n" }.joined()
        lock += "\nDEPENDENCIES:\n" + pods.map { "  - \($0) (~> 2.0)\n" }.joined()
        lock += "\nSPEC REPOS:\n  trunk:\n" + pods.map { "    - \($0)\n" }.joined()
        lock += "\nSPEC CHECKSUMS:\n" + pods.map { "  \($0): \(revision($0.count))\n" }.joined()
        lock += "\nPODFILE CHECKSUM: \(try digest("1", folder + "/Podfile"))\n\nCOCOAPODS: 1.15.2\n"
        try write(lock, folder + "/Podfile.lock")
        try write(lock, folder + "/Pods/Manifest.lock")
    }

    static func writeCarthage(_ folder: String) throws {
        let names = (1...15).map { "owner/Framework\($0)" }
        try write(names.map { "github \"\($0)\" ~> 3.1\n" }.joined(), folder + "/Cartfile")
        try write(names.map { "github \"\($0)\" \"v3.4.2\"\n" }.joined(), folder + "/Cartfile.resolved")
    }

    static func writeGems(_ folder: String) throws {
        let gems = ["cocoapods (1.15.2)"] + (1...120).map { "gem\($0) (1.\($0).0)" }
        var lock = "GEM\n  remote: https://rubygems.org/\n  specs:\n" + gems.map { "    \($0)\n      base64 (>= 0.1)\n" }.joined()
        lock += "\nPLATFORMS\n  arm64-darwin-23\n  aarch64-linux\n  x86_64-darwin-22\n  x86_64-linux\n"
        lock += "\nDEPENDENCIES\n  cocoapods (~> 1.15)\n" + (1...40).map { "  gem\($0) (>= 1.0)\n" }.joined()
        lock += "\nCHECKSUMS\n" + gems.map { "  \($0) sha256=\(revision($0.count))\(revision($0.count).prefix(24))\n" }.joined()
        lock += "\nBUNDLED WITH\n   2.5.6\n"
        try write(lock, folder + "/Gemfile.lock")
    }

    static func write(_ text: String, _ path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// `shasum -a 1|256` of a file (the benchmark does not link Crypto).
    static func digest(_ algorithm: String, _ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["shasum", "-a", algorithm, path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(String(decoding: data, as: UTF8.self).prefix { $0 != " " })
    }
}
