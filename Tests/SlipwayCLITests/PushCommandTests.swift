import Crypto
import Foundation
import Signing
import Testing
import TestSupport
import TestThreads

/// `slipway push check|send` through the built binary.
@Suite(.dedicatedThreads) struct PushCommandTests {
    static let token = String(repeating: "0f", count: 32)

    @Test func checkAKeyAndACertificate() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-push-check")
        let key = P256.Signing.PrivateKey()
        _ = try folder.write("AuthKey_ABC123DEFG.p8", key.pemRepresentation)
        let checked = try CommandResult.run(Binaries.slipway, ["push", "check", "AuthKey_ABC123DEFG.p8", "--team-id", "AB12CD34EF"],
                                            in: folder.path)
        #expect(checked.status == 0, "\(checked.standardError)")
        #expect(checked.standardOutput.hasPrefix("AuthKey_ABC123DEFG.p8: valid APNs auth key (token-based)\n  key id:      ABC123DEFG\n"))
        #expect(!checked.standardOutput.contains(key.pemRepresentation.split(separator: "\n")[1]))

        let elsewhere = try CommandResult.run(Binaries.slipway, ["push", "check", "-C", folder.path, "AuthKey_ABC123DEFG.p8", "--team-id", "AB12CD34EF"],
                                              in: "/")
        #expect(elsewhere.standardOutput.hasPrefix("\(folder.path)/AuthKey_ABC123DEFG.p8: valid APNs auth key (token-based)\n"), "\(elsewhere.standardError)")

        let p12 = try Self.pushP12(notAfter: Date().addingTimeInterval(5 * 86_400))
        try Data(p12).write(to: folder.url("push.p12"))
        let json = try CommandResult.run(Binaries.slipway, ["push", "check", "push.p12", "--password-env", "P12_PASSWORD", "--json"],
                                         in: folder.path, environment: ["P12_PASSWORD": "hunter2", "GITHUB_ACTIONS": "true"])
        #expect(json.status == 0, "\(json.standardError)")
        #expect(json.standardOutput.contains(#""environment" : "both""#))
        #expect(json.standardOutput.contains(#""subject" : "Apple Push Services: com.example.app""#))
        #expect(json.standardOutput.contains("::warning::the push certificate in 'push.p12' expires on "))
        #expect(json.standardError.hasPrefix("warning: the push certificate in 'push.p12' expires on "))
        #expect(!json.standardOutput.contains("hunter2"))
    }

    @Test func badCredentialsFailWithExactMessagesAndExitCodes() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-push-bad")
        _ = try folder.write("push.p8", P384.Signing.PrivateKey().pemRepresentation)
        try Data(try Self.pushP12(notAfter: Date().addingTimeInterval(86_400))).write(to: folder.url("push.p12"))
        let before = try Snapshot.of(folder.path)
        let curve = try CommandResult.run(Binaries.slipway, ["push", "check", "push.p8", "--key-id", "ABC123DEFG", "--team-id", "AB12CD34EF"],
                                          in: folder.path)
        #expect(curve.status == 1)
        #expect(curve.standardError == "error: 'push.p8' holds an EC key on the P-384 curve, not the P-256 (ES256) private key of an APNs auth key. Download the key again from Certificates, Identifiers & Profiles → Keys (with Apple Push Notifications service enabled).\n")
        let noTeam = try CommandResult.run(Binaries.slipway, ["push", "check", "push.p8"], in: folder.path)
        #expect(noTeam.status == 64)
        #expect(noTeam.standardError.hasPrefix("Error: A .p8 key needs --team-id (the Team ID of your developer account).\n"))
        let wrong = try CommandResult.run(Binaries.slipway, ["push", "check", "push.p12", "--password-env", "P12_PASSWORD"],
                                          in: folder.path, environment: ["P12_PASSWORD": "wrong"])
        #expect(wrong.status == 1)
        #expect(wrong.standardError == "error: The password does not open 'push.p12' (its integrity check failed). Check the PKCS#12 password; if it is right, the file is damaged: export it again.\n")
        let topic = try CommandResult.run(Binaries.slipway, ["push", "check", "push.p12", "--password-env", "P12_PASSWORD", "--topic", "com.other.app"],
                                          in: folder.path, environment: ["P12_PASSWORD": "hunter2"])
        #expect(topic.status == 1)
        #expect(topic.standardError == "error: The push certificate in 'push.p12' cannot send to the topic 'com.other.app'; its topics are 'com.example.app'. Use one of them with --topic, or the certificate of that app.\n")
        #expect(try Snapshot.of(folder.path) == before)
    }

    @Test func sendATestNotificationThroughTheFake() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-push-send")
        let key = P256.Signing.PrivateKey()
        _ = try folder.write("AuthKey_ABC123DEFG.p8", key.pemRepresentation)
        let fake = try APNsContractFake(keyID: "ABC123DEFG", teamID: "AB12CD34EF", publicKeyPEM: key.publicKey.pemRepresentation,
                                        topics: ["com.example.app"])
        let common = ["push", "send", "--device-token", Self.token, "--topic", "com.example.app", "--key", "AuthKey_ABC123DEFG.p8",
                      "--team-id", "AB12CD34EF", "--host", fake.url, "--ca-file", fake.caFile]
        let sent = try CommandResult.run(Binaries.slipway, common + ["--message", "Hello"], in: folder.path)
        #expect(sent.status == 0, "\(sent.standardError)")
        let request = try #require(try fake.requests().first)
        #expect(sent.standardOutput == "sent: APNs accepted the notification (apns-id \(request.headers["apns-id"] ?? "?"), 127.0.0.1, HTTP/2)\n"
            || sent.standardOutput.hasPrefix("sent: APNs accepted the notification (apns-id "))
        #expect(request.payload == #"{"aps":{"alert":"Hello","sound":"default"}}"#)
        #expect(request.kid == "ABC123DEFG")

        try fake.failNext([.init(status: 400, reason: "BadDeviceToken")])
        let refused = try CommandResult.run(Binaries.slipway, common + ["--production"], in: folder.path)
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("APNs refused the notification: HTTP 400 BadDeviceToken (apns-id "))
        #expect(refused.standardError.contains("The device token is not valid for this environment"))
        #expect(!refused.standardError.contains(key.pemRepresentation.split(separator: "\n")[1]))

        let big = "{\"aps\":{\"alert\":\"" + String(repeating: "x", count: 4_100) + "\"}}"
        let tooLarge = try CommandResult.run(Binaries.slipway, common + ["--payload", big], in: folder.path)
        #expect(tooLarge.status == 1)
        #expect(tooLarge.standardError == "error: The payload is 4120 bytes; APNs accepts at most 4096 (5120 for VoIP). Nothing was sent. Shorten it.\n")
        let badToken = try CommandResult.run(Binaries.slipway, ["push", "send", "--device-token", "xyz", "--topic", "com.example.app",
                                                                "--key", "AuthKey_ABC123DEFG.p8", "--team-id", "AB12CD34EF", "--host", fake.url,
                                                                "--ca-file", fake.caFile], in: folder.path)
        #expect(badToken.status == 1)
        #expect(badToken.standardError == "error: --device-token holds 'x', which is not a hex digit. Give the token the app received in application(_:didRegisterForRemoteNotificationsWithDeviceToken:), as hex (64 digits for most devices).\n")
        let badType = try CommandResult.run(Binaries.slipway, common + ["--push-type", "banner"], in: folder.path)
        #expect(badType.status == 64)
        #expect(badType.standardError.hasPrefix("Error: --push-type 'banner' is not an APNs push type. Use one of alert, background, controls, location, voip, complication, fileprovider, liveactivity, mdm, pushtotalk, widgets.\n"))
        _ = try folder.write("payload.json", #"{"aps":{"alert":{"title":"From a file"}}}"#)
        let fromFile = try CommandResult.run(Binaries.slipway, common + ["--payload", "@payload.json", "--json"], in: folder.path)
        #expect(fromFile.status == 0, "\(fromFile.standardError)")
        #expect(fromFile.standardOutput.contains(#""protocolVersion" : "HTTP/2""#))
        #expect(try fake.requests().last?.payload == #"{"aps":{"alert":{"title":"From a file"}}}"#)
        let missing = try CommandResult.run(Binaries.slipway, common + ["--payload", "@nowhere.json"], in: folder.path)
        #expect(missing.standardError == "error: Cannot read 'nowhere.json': there is no such file. Check the path.\n")
        #expect(try fake.requests().count == 3)
    }

    /// A universal push .p12 (password "hunter2") from a test CA.
    static func pushP12(notAfter: Date, notBefore: Date = Date().addingTimeInterval(-86_400)) throws -> [UInt8] {
        let key = try SigningPrivateKey.generate()
        let certificate = try TestCertificateAuthority().issuePush(
            publicKey: key.publicKey, bundleID: "com.example.app", environment: .universal,
            notValidBefore: notBefore, notValidAfter: notAfter)
        return try SigningIdentity(certificate: try SigningCertificate(certificate), key: key).pkcs12(password: "hunter2")
    }
}
