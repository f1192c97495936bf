import AppleAPI
import Crypto
import Foundation
import Networking
import TestSupport
import Transport

/// Collects values from any thread (sleeps asked for, log lines).
final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Value] = []

    func append(_ value: Value) { lock.withLock { items.append(value) } }
    var values: [Value] { lock.withLock { items } }
}

/// A settable clock for token tests.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date = Date()) { current = start }
    var now: Date { lock.withLock { current } }
    func advance(seconds: TimeInterval) { lock.withLock { current = current.addingTimeInterval(seconds) } }
}

/// A fresh P-256 key, the contract fake that knows it, and clients wired to both with no real waits.
struct AppleAPIFixture {
    static let issuerID = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"
    static let keyID = "ABC123DEFG"

    let privateKey = P256.Signing.PrivateKey()
    let key: AppStoreConnectKey
    let fake: AppStoreConnectContractFake
    let sleeps = Recorder<Duration>()
    let log = Recorder<String>()
    let clock = TestClock()

    init(individual: Bool = false) throws {
        key = try AppStoreConnectKey(issuerID: individual ? nil : Self.issuerID, keyID: Self.keyID,
                                     privateKeyPEM: privateKey.pemRepresentation, individual: individual)
        fake = try AppStoreConnectContractFake(keys: [
            .init(issuerID: individual ? nil : Self.issuerID, keyID: Self.keyID, publicKeyPEM: privateKey.publicKey.pemRepresentation),
        ], onViolations: recordContractViolations)
    }

    /// A client on libcurl whose waits are recorded, not slept.
    func client(attempts: Int = 3) -> AppStoreConnectClient {
        let sleeps = self.sleeps, log = self.log, clock = self.clock
        return AppStoreConnectClient(
            key: key, http: SystemHTTPClient(), baseURL: fake.baseURL,
            retry: RetryPolicy(attempts: attempts, sleep: { sleeps.append($0) }, random: { 1 }),
            now: { clock.now }, log: { log.append($0) })
    }
}
