import Foundation
import Signing
import Testing
import TestSupport
import TestThreads

/// `slipway signing push add|remove` and `signing list` with push certificates, through the built
/// binary, in a directory storage.
@Suite(.dedicatedThreads) struct SigningPushCommandTests {
    static let passphrase = "push passphrase 3"
    let folder: TemporaryDirectory

    init() throws { folder = try TemporaryDirectory(prefix: "slipway-signing-push") }

    func slipway(_ arguments: [String], environment: [String: String?] = [:]) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, ["signing"] + arguments, in: folder.path, environment: [
            "SLIPWAY_SIGNING_PASSPHRASE": Self.passphrase, "MATCH_PASSWORD": nil, "GITHUB_ACTIONS": nil, "CI": "false",
            "P12_PASSWORD": "hunter2", "SLIPWAY_CACHE_DIR": folder.path + "/cache",
        ].merging(environment) { $1 })
    }

    /// Now plus `offset`, in whole seconds (as a certificate stores it), taken once per test so
    /// that the expected day and the certificate's agree even across midnight.
    static func wholeSeconds(from now: Date = Date(), _ offset: TimeInterval) -> Date {
        Date(timeIntervalSince1970: (now.timeIntervalSince1970 + offset).rounded(.down))
    }

    static func day(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }

    @Test func addListAndRemoveAPushCertificate() throws {
        // Ten days less an hour: "in 10 days" (rounded up) whatever the time the binary takes.
        let expiry = Self.wholeSeconds(10 * 86_400 - 3_600)
        try Data(try PushCommandTests.pushP12(notAfter: expiry)).write(to: folder.url("push.p12"))
        let day = Self.day(expiry)
        let added = try slipway(["push", "add", "push.p12", "--password-env", "P12_PASSWORD", "--storage", "store"])
        #expect(added.status == 0, "\(added.standardError)")
        #expect(added.standardOutput == """
            stored push/both/com.example.app.p12 (Apple Push Services: com.example.app, both, expires \(day))
            warning: the push certificate in 'push.p12' expires on \(day) (in 10 days); create a new one in Certificates, Identifiers & Profiles, or switch to a .p8 key

            """)
        let stored = try Data(contentsOf: folder.url("store/push/both/com.example.app.p12"))
        #expect(stored.range(of: Data("com.example.app".utf8)) == nil, "the stored file is encrypted")

        let warning = "push/both/com.example.app.p12 expires on \(day) (within 30 days): create a new push certificate and 'slipway signing push add' it, or switch to a .p8 key"
        let list = try slipway(["list", "--storage", "store"], environment: ["GITHUB_ACTIONS": "true"])
        #expect(list.status == 0, "\(list.standardError)")
        #expect(list.standardOutput.contains("push certificates:\n  both  com.example.app  topics com.example.app  expires \(day)\nwarning: \(warning)\n"))
        #expect(list.standardOutput.hasSuffix("::warning::\(warning)\n"))
        let json = try slipway(["list", "--storage", "store", "--json"])
        #expect(json.standardOutput.contains(#""pushCertificates" : ["#))
        #expect(json.standardOutput.contains(#""path" : "push/both/com.example.app.p12""#))

        let removed = try slipway(["push", "remove", "--bundle-id", "com.example.app", "--storage", "store"])
        #expect(removed.status == 0, "\(removed.standardError)")
        #expect(removed.standardOutput == "removed push/both/com.example.app.p12\n")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/store/push/both/com.example.app.p12"))
        let again = try slipway(["push", "remove", "--bundle-id", "com.example.app", "--storage", "store"])
        #expect(again.status == 1)
        #expect(again.standardError == "error: 'push/*/com.example.app.p12' is not in the signing storage '\(folder.path)/store'. Run 'slipway signing list' to see what it holds.\n")
    }

    @Test func badPushCertificatesAreRefusedAndNothingChanges() throws {
        try Data(try PushCommandTests.pushP12(notAfter: Date().addingTimeInterval(100 * 86_400))).write(to: folder.url("push.p12"))
        #expect(try slipway(["push", "add", "push.p12", "--password-env", "P12_PASSWORD", "--storage", "store"]).status == 0)
        let expiredOn = Self.wholeSeconds(-86_400)
        try Data(try PushCommandTests.pushP12(notAfter: expiredOn, notBefore: Date().addingTimeInterval(-9 * 86_400)))
            .write(to: folder.url("expired.p12"))
        let before = try Snapshot.of(folder.path)
        let wrong = try slipway(["push", "add", "push.p12", "--password-env", "P12_PASSWORD", "--storage", "store"],
                                environment: ["P12_PASSWORD": "wrong"])
        #expect(wrong.status == 1)
        #expect(wrong.standardError == "error: The password does not open 'push.p12' (its integrity check failed). Check the PKCS#12 password; if it is right, the file is damaged: export it again.\n")
        let expired = try slipway(["push", "add", "expired.p12", "--password-env", "P12_PASSWORD", "--storage", "store"])
        #expect(expired.status == 1)
        #expect(expired.standardError == "error: The push certificate in 'expired.p12' expired on \(Self.day(expiredOn)). Create a new one in Certificates, Identifiers & Profiles (or switch to a .p8 key, which does not expire) and export it with its key as .p12.\n")
        let badEnvironment = try slipway(["push", "remove", "--bundle-id", "com.example.app", "--environment", "staging", "--storage", "store"])
        #expect(badEnvironment.status == 64)
        #expect(badEnvironment.standardError.hasPrefix("Error: --environment must be sandbox, production or both, not 'staging'.\n"))
        #expect(try Snapshot.of(folder.path) == before)
    }

    @Test func anExpiredStoredPushCertificateFailsTheListing() async throws {
        let storage = try await EncryptedSigningStorage.open(DirectorySigningStorage(root: folder.path + "/store"), passphrase: Self.passphrase)
        let expiredOn = Self.wholeSeconds(-86_400)
        let identity = try SigningIdentity(pkcs12: try PushCommandTests.pushP12(notAfter: expiredOn,
                                                                                notBefore: Date().addingTimeInterval(-9 * 86_400)),
                                           password: "hunter2", file: "expired.p12")
        _ = try await storage.addPushCertificate(try PushCertificate(identity: identity, file: "expired.p12"), file: "expired.p12")
        let before = try Snapshot.of(folder.path)
        let list = try slipway(["list", "--storage", "store"])
        #expect(list.status == 1)
        #expect(list.standardOutput.contains("warning: push/both/com.example.app.p12 expired on "))
        #expect(list.standardError == "error: The push certificate in 'push/both/com.example.app.p12' expired on \(Self.day(expiredOn)). Create a new one in Certificates, Identifiers & Profiles (or switch to a .p8 key, which does not expire) and export it with its key as .p12.\n")
        #expect(try Snapshot.of(folder.path) == before)
    }
}
