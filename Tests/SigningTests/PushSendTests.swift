import Basics
import Foundation
import Networking
import Signing
import Testing
import TestSupport
import TestThreads

/// `slipway push send`'s library against the APNs contract fake: HTTP/2 over TLS on loopback,
/// the JWT verified by the fake, Apple's error reasons explained.
@Suite(.dedicatedThreads) struct PushSendTests {
    static let token = String(repeating: "ab", count: 32)

    struct Setup {
        let fake: APNsContractFake
        let sender: APNsSender
        let folder: TemporaryDirectory
    }

    static func setUp(now: @escaping @Sendable () -> Date = { Date() }) throws -> Setup {
        let folder = try TemporaryDirectory(prefix: "slipway-apns-send")
        let (pem, publicPEM) = PushFixtures.p8()
        let path = try folder.write("AuthKey_ABC123DEFG.p8", pem)
        let fake = try APNsContractFake(keyID: PushFixtures.keyID, teamID: PushFixtures.teamID, publicKeyPEM: publicPEM,
                                        topics: ["com.example.app", "com.example.app.voip"])
        let key = try APNsAuthKey.load(file: path, keyID: nil, teamID: PushFixtures.teamID)
        let sender = APNsSender(http: CurlHTTPClient(), key: key, host: try #require(URL(string: fake.url)),
                                trustedCertificatesFile: fake.caFile, now: now)
        return Setup(fake: fake, sender: sender, folder: folder)
    }

    static func alert(_ text: String = "Hello", topic: String = "com.example.app") throws -> APNsNotification {
        try APNsNotification(deviceToken: token, topic: topic, pushType: .alert,
                             payload: APNsNotification.payload(message: text, pushType: .alert))
    }

    @Test func aNotificationGoesOverHTTP2WithAVerifiedTokenAndAppleHeaders() async throws {
        let setup = try Self.setUp()
        let delivery = try await setup.sender.send(try Self.alert("Hi \"there\""))
        #expect(delivery.protocolVersion == "HTTP/2")
        #expect(delivery.host == "127.0.0.1")
        let requests = try setup.fake.requests()
        #expect(requests.count == 1)
        let request = try #require(requests.first)
        #expect(request.protocolName == "h2")
        #expect(request.status == 200)
        #expect(request.violations == [])
        #expect(delivery.apnsID?.count == 36)
        #expect(request.method == "POST")
        #expect(request.path == "/3/device/" + Self.token)
        #expect(request.kid == "ABC123DEFG")
        #expect(request.iss == "AB12CD34EF")
        #expect(request.headers["apns-topic"] == "com.example.app")
        #expect(request.headers["apns-push-type"] == "alert")
        #expect(request.headers["apns-priority"] == "10")
        #expect(request.headers["apns-expiration"] == "0")
        #expect(request.payload == #"{"aps":{"alert":"Hi \"there\"","sound":"default"}}"#)
    }

    @Test func everyReasonOfAppleIsExplained() async throws {
        let setup = try Self.setUp()
        let faults: [(Int, String, String)] = [
            (400, "BadDeviceToken", "The device token is not valid for this environment"),
            (400, "TopicDisallowed", "This key or certificate may not send to that topic."),
            (400, "DeviceTokenNotForTopic", "The device token belongs to another app than --topic."),
            (400, "BadTopic", "The apns-topic is missing or not valid."),
            (403, "ExpiredProviderToken", "The authentication token is older than an hour."),
            (403, "InvalidProviderToken", "The authentication token did not verify"),
            (413, "PayloadTooLarge", "The payload is over 4096 bytes"),
            (429, "TooManyRequests", "Too many notifications were sent to this device in a short time."),
            (503, "ServiceUnavailable", "APNs had a problem on its side."),
        ]
        try setup.fake.failNext(faults.map { APNsContractFake.Fault(status: $0.0, reason: $0.1) })
        for (status, reason, explanation) in faults {
            do {
                _ = try await setup.sender.send(try Self.alert())
                Issue.record("\(reason) was not reported")
            } catch let error as PushCredentialError {
                guard case let .rejected(gotStatus, gotReason, _, apnsID) = error else { Issue.record("\(error)"); continue }
                #expect(gotStatus == status)
                #expect(gotReason == reason)
                #expect(apnsID != nil)
                #expect(error.errorDescription?.hasPrefix("APNs refused the notification: HTTP \(status) \(reason) (apns-id ") == true)
                #expect(error.errorDescription?.contains(explanation) == true, "\(error.errorDescription ?? "")")
            }
        }
        try setup.fake.failNext([.init(status: 410, reason: "Unregistered", timestamp: 1_767_225_600_000)])
        await #expect(throws: PushCredentialError.self) { _ = try await setup.sender.send(try Self.alert()) }
        let message = PushCredentialError.rejected(status: 410, reason: "Unregistered", timestamp: Date(timeIntervalSince1970: 1_767_225_600),
                                                   apnsID: "ID").errorDescription
        #expect(message == "APNs refused the notification: HTTP 410 Unregistered (apns-id ID). The device token is no longer active for the topic on 2026-01-01T00:00:00Z: the app was removed or notifications were turned off. Stop sending to this token.")
        do {
            _ = try await setup.sender.send(try Self.alert())
        } catch { Issue.record("the faults were not all consumed: \(error)") }
    }

    @Test func theFakeChecksTheTokenTopicAndTimeItself() async throws {
        let old = try Self.setUp(now: { Date().addingTimeInterval(-7_200) })
        do {
            _ = try await old.sender.send(try Self.alert())
            Issue.record("a token issued two hours ago was accepted")
        } catch let PushCredentialError.rejected(status, reason, _, _) {
            #expect(status == 403)
            #expect(reason == "ExpiredProviderToken")
        }
        let setup = try Self.setUp()
        do {
            _ = try await setup.sender.send(try Self.alert(topic: "com.other.app"))
            Issue.record("a topic the fake does not know was accepted")
        } catch let PushCredentialError.rejected(status, reason, _, _) {
            #expect(status == 400)
            #expect(reason == "TopicDisallowed")
        }
        #expect(try setup.fake.requests().map(\.reason) == ["TopicDisallowed"])
    }

    @Test func badNotificationsAreRefusedBeforeAnythingIsSent() throws {
        let big = Array(#"{"aps":{"alert":""#.utf8) + Array(repeating: UInt8(ascii: "a"), count: 4_100) + Array(#""}}"#.utf8)
        #expect(throws: PushCredentialError.payloadTooLarge(size: big.count, limit: 4_096)) {
            try APNsNotification(deviceToken: Self.token, topic: "com.example.app", pushType: .alert, payload: big)
        }
        #expect(PushCredentialError.payloadTooLarge(size: 4_123, limit: 4_096).errorDescription
            == "The payload is 4123 bytes; APNs accepts at most 4096 (5120 for VoIP). Nothing was sent. Shorten it.")
        #expect(throws: PushCredentialError.invalidPayload(detail: "has no 'aps' dictionary")) {
            try APNsNotification(deviceToken: Self.token, topic: "com.example.app", pushType: .alert, payload: Array(#"{"alert":"x"}"#.utf8))
        }
        #expect(throws: PushCredentialError.invalidPayload(detail: "is not JSON")) {
            try APNsNotification(deviceToken: Self.token, topic: "com.example.app", pushType: .alert, payload: Array("{".utf8))
        }
        #expect(throws: PushCredentialError.malformedDeviceToken(detail: "holds 'z', which is not a hex digit")) {
            try APNsNotification(deviceToken: "zz" + Self.token, topic: "com.example.app", pushType: .alert, payload: Array(#"{"aps":{}}"#.utf8))
        }
        #expect(throws: PushCredentialError.malformedTopic("com..app")) {
            try APNsNotification(deviceToken: Self.token, topic: "com..app", pushType: .alert, payload: Array(#"{"aps":{}}"#.utf8))
        }
        #expect(throws: PushCredentialError.invalidPriority(7)) {
            try APNsNotification(deviceToken: Self.token, topic: "com.example.app", pushType: .alert, priority: 7, payload: Array(#"{"aps":{}}"#.utf8))
        }
        #expect(PushCredentialError.invalidPriority(7).errorDescription
            == "--priority 7 is not an APNs priority. Use 10 (immediate), 5 (power-conscious; required for background) or 1.")
        let background = try APNsNotification(deviceToken: Self.token, topic: "com.example.app", pushType: .background,
                                               payload: APNsNotification.payload(message: nil, pushType: .background))
        #expect(background.priority == 5)
        #expect(String(decoding: background.payload, as: UTF8.self) == #"{"aps":{"content-available":1}}"#)
    }

    @Test func anHTTP1ExchangeIsRefusedByTheFakeAndBySlipway() async throws {
        let setup = try Self.setUp()
        // A client that speaks HTTP/1.1 (curl's tool, forced to): the fake answers 505 and records it.
        let http1 = try CommandResult.run("/usr/bin/env", ["curl", "--http1.1", "--cacert", setup.fake.caFile, "-sS", "-o", "/dev/null",
                                                           "-w", "%{http_code} %{http_version}", "-X", "POST", "--data", #"{"aps":{}}"#,
                                                           setup.fake.url + "/3/device/" + Self.token])
        #expect(http1.standardOutput == "505 1.1", "\(http1.standardError)")
        #expect(try setup.fake.requests().map(\.protocolName) == ["http/1.1"])
        // Slipway's client asks for HTTP/2 and gets it.
        var request = HTTPRequest(method: .post, url: try #require(URL(string: setup.fake.url + "/3/device/" + Self.token)),
                                  body: .bytes(Array(#"{"aps":{}}"#.utf8)))
        request.prefersHTTP2 = true
        request.trustedCertificatesFile = setup.fake.caFile
        let response = try await CurlHTTPClient().send(request)
        #expect(response.protocolVersion == "HTTP/2")
        #expect(try setup.fake.requests().map(\.protocolName) == ["http/1.1", "h2"])
        let sender = APNsSender(http: HTTP1Client(), key: try APNsAuthKey(pem: Array(PushFixtures.p8().pem.utf8), file: "AuthKey_ABC123DEFG.p8",
                                                                            keyID: nil, teamID: PushFixtures.teamID),
                                host: try #require(URL(string: "https://api.sandbox.push.apple.com")))
        await #expect(throws: PushCredentialError.notHTTP2(host: "api.sandbox.push.apple.com", version: "HTTP/1.1")) {
            _ = try await sender.send(try Self.alert())
        }
    }

    @Test func aMissingPythonPackageFailsWithAClearMessage() {
        #expect(throws: APNsContractFake.MissingPackages.self) {
            try APNsContractFake.requirePythonModules(["slipway_no_such_module"])
        }
        do {
            try APNsContractFake.requirePythonModules(["slipway_no_such_module"])
        } catch {
            #expect("\(error)".hasPrefix("the APNs contract fake needs the Python packages slipway_no_such_module (python3 -m pip install slipway_no_such_module, or run scripts/setup.sh)"))
        }
    }
}

/// A client whose every answer came over HTTP/1.1.
private struct HTTP1Client: HTTPClient {
    func send(_ request: HTTPRequest, progress: HTTPProgressHandler?) async throws -> HTTPResponse {
        var response = HTTPResponse(status: 200)
        response.protocolVersion = "HTTP/1.1"
        return response
    }

    func download(_ request: HTTPRequest, to destination: String, progress: HTTPProgressHandler?) async throws -> HTTPResponse {
        try await send(request, progress: progress)
    }
}
