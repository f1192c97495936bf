import Crypto
import Foundation
import Testing
import TestSupport

/// A change to a copied fixture, as the app's own tooling would write it: every `old` in `file`
/// becomes `new` (there must be at least one).
struct PreflightRealEdit: Sendable {
    var file: String
    var old: String
    var new: String
}

/// One `slipway preflight` of a real app: the tree (its fixture with `edits`), what App Store
/// Connect gains just before (a version being prepared, an upload), and the App Store Connect
/// rules' findings, exactly (`{app}` is the app's id, `{v X}` the id of version X's record).
struct PreflightRealRun: Sendable {
    var name: String
    var edits: [PreflightRealEdit] = []
    var prepare: String?
    var upload: [String]?
    var expected: [String] = []
}

/// A real app from Fixtures/versions, its App Store Connect history (Fixtures/preflight-real,
/// derived from its repository's tags) and the runs to make.
struct PreflightRealApp: Sendable, CustomTestStringConvertible {
    var folder: String
    var name: String
    var bundleID: String
    var arguments: [String] = []
    /// Files copied inside the tree before every run (`from`, `to`), to read it as the team's Mac does.
    var copies: [[String]] = []
    /// The offline rules that have findings on every run (the fixtures hold only the version
    /// files: no entitlements, icons or privacy manifests), listed, not judged here.
    var offline: [String]
    var runs: [PreflightRealRun]

    var testDescription: String { folder }

    static let remoteRules = ["app-store-connect-app", "version-above-released", "version-train-open", "version-matches-prepared",
                              "build-number-above-uploaded"]
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path
}

/// An app's history as its `.history` file states it: versions released, builds uploaded.
struct PreflightRealHistory {
    var released: [String] = []
    var builds: [(version: String, build: String)] = []

    init(app: String) throws {
        let text = try String(contentsOfFile: PreflightRealApp.fixtures + "/preflight-real/\(app).history", encoding: .utf8)
        for line in text.split(separator: "\n") {
            let words = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0].split(separator: " ").map(String.init)
            switch words.first {
            case "released" where words.count == 2: released.append(words[1])
            case "build" where words.count == 3:
                // A release tag and a build tag on one commit name the same upload once.
                if !builds.contains(where: { $0 == (words[1], words[2]) }) { builds.append((words[1], words[2])) }
            case nil: continue
            default: Issue.record("\(app).history: '\(line)' is not 'released VERSION' or 'build VERSION NUMBER'")
            }
        }
    }

    /// Numbers compared part by part, as App Store Connect orders versions.
    static func isLower(_ lhs: String, _ rhs: String) -> Bool {
        let left = lhs.split(separator: ".").map { Int($0) ?? 0 }, right = rhs.split(separator: ".").map { Int($0) ?? 0 }
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? left[index] : 0, b = index < right.count ? right[index] : 0
            if a != b { return a < b }
        }
        return false
    }

    /// Seeds the released versions (the highest on sale, the others replaced) and, per version,
    /// its pre-release version and builds, in three requests; returns each version's App Store
    /// version id.
    func seed(into fake: AppStoreConnectContractFake, app: String) throws -> [String: String] {
        let link = "{\"type\": \"apps\", \"id\": \"\(app)\"}"
        let latest = released.max(by: Self.isLower)
        let versionIDs = try fake.seed(released.map { version in
            ("appStoreVersions", Self.versionAttributes(version, state: "READY_FOR_DISTRIBUTION",
                                                        storeState: version == latest ? "READY_FOR_SALE" : "REPLACED_WITH_NEW_VERSION"), ["app": link])
        })
        var trains: [String] = []
        for (version, _) in builds where !trains.contains(version) { trains.append(version) }
        let trainIDs = try fake.seed(trains.map { ("preReleaseVersions", "{\"version\": \"\($0)\", \"platform\": \"IOS\"}", ["app": link]) })
        let train = Dictionary(uniqueKeysWithValues: zip(trains, trainIDs))
        _ = try fake.seed(builds.map { version, build in
            ("builds", "{\"version\": \"\(build)\", \"processingState\": \"VALID\", \"expired\": true, \"uploadedDate\": \"2024-01-01T00:00:00+00:00\"}",
             ["app": link, "preReleaseVersion": "{\"type\": \"preReleaseVersions\", \"id\": \"\(train[version] ?? "")\"}"])
        })
        #expect(versionIDs.count == released.count && trainIDs.count == trains.count)
        return Dictionary(zip(released, versionIDs), uniquingKeysWith: { first, _ in first })
    }

    static func versionAttributes(_ version: String, state: String, storeState: String) -> String {
        "{\"versionString\": \"\(version)\", \"platform\": \"IOS\", \"appVersionState\": \"\(state)\", "
            + "\"appStoreState\": \"\(storeState)\", \"releaseType\": \"AFTER_APPROVAL\", \"earliestReleaseDate\": null}"
    }

    /// Seeds an App Store version of `app`; returns its id.
    static func seedVersion(_ version: String, state: String, storeState: String, into fake: AppStoreConnectContractFake, app: String) throws -> String {
        try fake.seed("appStoreVersions", attributes: versionAttributes(version, state: state, storeState: storeState),
                      relationships: ["app": "{\"type\": \"apps\", \"id\": \"\(app)\"}"])
    }

    /// Seeds a completed build upload (the Build Uploads API's record of an upload).
    static func seedUpload(_ version: String, _ build: String, into fake: AppStoreConnectContractFake, app: String) throws {
        try fake.seed("buildUploads", attributes: "{\"cfBundleShortVersionString\": \"\(version)\", \"cfBundleVersion\": \"\(build)\", \"platform\": \"IOS\", "
                      + "\"createdDate\": \"2026-01-01T00:00:00+00:00\", \"uploadedDate\": \"2026-01-01T00:00:00+00:00\", "
                      + "\"state\": {\"state\": \"COMPLETE\", \"errors\": [], \"warnings\": [], \"infos\": []}}",
                      relationships: ["app": "{\"type\": \"apps\", \"id\": \"\(app)\"}"])
    }
}

/// What one run printed, read from `--json`.
struct PreflightRealReport {
    var remote: [String] = []
    var offlineRules: [String] = []
    var ran: [String] = []
    var skipped: [String] = []
    var application: String?

    init(json: String) throws {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? [:]
        for finding in object["findings"] as? [[String: Any]] ?? [] {
            let rule = finding["rule"] as? String ?? "?"
            let location = finding["location"] as? [String: Any] ?? [:]
            var place = location["file"] as? String ?? "App Store Connect " + (location["resource"] as? String ?? "")
            if let line = location["line"] as? Int { place += ":\(line)" }
            if PreflightRealApp.remoteRules.contains(rule) {
                remote.append("\(finding["severity"] as? String ?? "?"): \(place): [\(rule)] \(finding["message"] as? String ?? "")")
            } else if !offlineRules.contains(rule) {
                offlineRules.append(rule)
            }
        }
        offlineRules.sort()
        ran = object["ran"] as? [String] ?? []
        application = object["application"] as? String
        skipped = (object["skipped"] as? [[String: Any]] ?? []).map { "\($0["rule"] as? String ?? "?"): \($0["reason"] as? String ?? "")" }
    }
}

extension PreflightRealApp {
    /// Copies the fixture into `folder` and makes the run's edits.
    func prepareTree(_ run: PreflightRealRun, in folder: String) throws {
        try FileManager.default.removeItem(atPath: folder)
        try FileManager.default.copyItem(atPath: Self.fixtures + "/versions/" + self.folder, toPath: folder)
        for edit in run.edits {
            let path = folder + "/" + edit.file
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains(edit.old), "\(self.folder) \(run.name): '\(edit.old)' is not in \(edit.file)")
            try text.replacingOccurrences(of: edit.old, with: edit.new).write(toFile: path, atomically: true, encoding: .utf8)
        }
        // After the edits: the copy stands for the same file, found under another name.
        for copy in copies {
            try FileManager.default.copyItem(atPath: folder + "/" + copy[0], toPath: folder + "/" + copy[1])
        }
    }
}
