import AppleAPI
import Basics
import Crypto
import Foundation
import Networking
import Publish
import TestSupport

/// `slipway-bench appstore-upload [--size-mb 500] [--runs N] [--part-mb 64]`: a build upload of a
/// generated (sparse) file to the App Store Connect contract fake (its part sink hashes and drops
/// the bytes), against `curl -T` of the same bytes to the same server; medians, the ratio, and
/// this process's peak RSS (flat when parts are streamed from disk).
enum AppStoreUploadBenchmark {
    static func run(_ arguments: [String]) async throws {
        let megabytes = Int(Bench.option("--size-mb", arguments) ?? "500") ?? 500
        let runs = max(1, Int(Bench.option("--runs", arguments) ?? "3") ?? 3)
        let partMB = Int(Bench.option("--part-mb", arguments) ?? "64") ?? 64
        let work = try TemporaryDirectory(prefix: "slipway-bench-appstore")
        let file = work.path + "/Example.ipa"
        _ = FileManager.default.createFile(atPath: file, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        try handle.truncate(atOffset: UInt64(megabytes) << 20)
        try handle.close()
        let size = Int64(megabytes) << 20

        let privateKey = P256.Signing.PrivateKey()
        let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"
        let fake = try AppStoreConnectContractFake(keys: [.init(issuerID: issuer, keyID: "ABC123DEFG",
                                                                publicKeyPEM: privateKey.publicKey.pemRepresentation)],
                                                   onViolations: { violations in
            FileHandle.standardError.write(Data(("App Store Connect contract violations:\n" + violations.joined(separator: "\n") + "\n").utf8))
        })
        let appID = try fake.seedApp(bundleID: "com.example.bench", name: "Bench")
        try fake.set(["part_size": String(partMB << 20), "keep_bytes_limit": "0"])
        let key = try AppStoreConnectKey(issuerID: issuer, keyID: "ABC123DEFG", privateKeyPEM: privateKey.pemRepresentation)
        let client = AppStoreConnectClient(key: key, http: SystemHTTPClient(), baseURL: fake.baseURL)
        print("appstore-upload: \(megabytes) MB file, \(partMB) MB parts, median of \(runs) runs (after one warm-up)")

        var build = 0
        let slipway = try await Bench.median(runs: runs) {
            build += 1
            var options = BuildUploader.Options()
            options.waitForProcessing = false
            options.pollInterval = .milliseconds(1)
            let info = IPAInfo(bundleID: "com.example.bench", version: "1.0", buildNumber: String(build), platform: "IOS",
                               path: file, fileSize: size, uti: "com.apple.ipa")
            _ = try await BuildUploader(client: client, options: options).upload(info, appID: appID)
        }
        // curl: one reservation whose single operation covers the file, PUT with curl -T.
        try fake.set(["part_size": String(size)])
        let curl = try await Bench.median(runs: runs) {
            build += 1
            let upload = try await client.document(AppStoreConnectRequest(
                .post, "/v1/buildUploads",
                body: JSONAPI.document(type: "buildUploads", attributes: ["cfBundleShortVersionString": "1.0",
                                                                          "cfBundleVersion": .string(String(build)), "platform": "IOS"],
                                       relationships: ["app": JSONAPIIdentifier(type: "apps", id: appID).json]),
                action: "reserve"))
            let reserved = try await client.document(AppStoreConnectRequest(
                .post, "/v1/buildUploadFiles",
                body: JSONAPI.document(type: "buildUploadFiles", attributes: ["assetType": "ASSET", "fileName": "Example.ipa",
                                                                              "fileSize": .int(size), "uti": "com.apple.ipa"],
                                       relationships: ["buildUpload": JSONAPIIdentifier(type: "buildUploads", id: upload.first?.id ?? "").json]),
                action: "reserve file"))
            let operation = reserved.first?.attributes["uploadOperations"]?.array?.first
            let url = operation?["url"]?.string ?? ""
            let headers = (operation?["requestHeaders"]?.array ?? []).flatMap { ["-H", "\($0["name"]?.string ?? ""): \($0["value"]?.string ?? "")"] }
            try await Bench.run("/usr/bin/env", ["curl", "-sS", "--fail", "-T", file, "-X", "PUT"] + headers + [url])
        }
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        Bench.report("appstore.upload (parts, commit, poll)", String(format: "%.2f s", slipway), target: "≤ 1.3× curl")
        Bench.report("curl -T (one PUT)", String(format: "%.2f s", curl), target: "baseline")
        Bench.report("ratio", String(format: "%.2fx", slipway / curl), target: "≤ 1.3x")
        Bench.report("peak RSS of this process", String(format: "%.0f MiB", Double(usage.ru_maxrss) / 1024), target: "flat")
        if try fake.state().violations.isEmpty == false { throw BenchError("contract violations: \(try fake.state().violations)") }
    }
}
