import AppleAPI
import Basics
import Crypto
import Foundation
import Networking
@testable import Steps
import TestSupport
import TestThreads
import Testing

/// The appstore.* steps mask what they learn while they run (a key read from a file, which is
/// no declared secret, and the tokens made from it) in events, outputs and errors.
@Suite("App Store steps mask the key and tokens they learn", .dedicatedThreads)
struct AppStoreMaskingTests {
    typealias Events = PublishStepTests.Events

    @Test func aKeyFromAFileAndItsTokensAreMaskedEverywhere() async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-appstore-masking")
        let events = Events()
        let context = StepContext(laneName: "release", stepID: "upload", workingDirectory: folder.path, environment: Environment.current,
                                  fileSystem: LocalFileSystem(), processRunner: LocalProcessRunner(), events: events,
                                  services: StepServices(httpClient: SystemHTTPClient()))
        let pem = P256.Signing.PrivateKey().pemRepresentation
        let key = try AppStoreConnectKey(issuerID: "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1", keyID: "ABC123DEFG", privateKeyPEM: pem)
        let line = try #require(pem.split(separator: "\n").first { !$0.hasPrefix("-----") }).description
        var thrown: (any Error)?
        do {
            _ = try await AppStoreStepSupport.masked(context) { masked, _ in
                let client = await AppStoreConnection.client(key: key, baseURL: URL(string: "http://127.0.0.1:9")!,
                                                              context: masked)
                // The first token the client makes is masked from then on.
                let token = try await client.tokens.token().value
                masked.events.log(.info, "token \(token)")
                masked.events.log(.info, "a line of the key: \(line)")
                throw StepError.failed("the key was \(pem)")
            }
        } catch {
            thrown = error
        }
        let message = (thrown as? LocalizedError)?.errorDescription ?? ""
        #expect(message.contains("the key was"))
        #expect(!message.contains(line) && !events.lines.joined().contains(line), "\(events.lines)")
        #expect(events.lines == ["info: token ***", "info: a line of the key: ***"])
    }
}
