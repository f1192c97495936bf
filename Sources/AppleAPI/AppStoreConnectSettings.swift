import Basics
import Foundation
import Transport

/// How to reach App Store Connect (or the Notary API) with a key: the key's ids, where its
/// private key is, the API's base URL and the retry policy. The CLI's key options
/// (`--key-id`, `--key-file`, `--api-url`, ...) and the steps' options (`key-id`, `key`,
/// `api-url`, ...) both parse into it, so both sides check the URL by one rule, read the key
/// one way and build the same client.
public struct AppStoreConnectSettings: Sendable {
    /// Where the `.p8` private key is.
    public enum KeySource: Sendable, Hashable {
        /// A file, by the path to read.
        case file(String)
        /// The key's text, and where it came from for messages ("in option 'key'", "in the
        /// environment variable ASC_KEY").
        case text(String, source: String)
    }

    /// The issuer id (team keys).
    public var issuerID: String?
    /// The key id (10 characters).
    public var keyID: String
    /// An individual key (no issuer id).
    public var individual: Bool
    /// Where the private key is.
    public var keySource: KeySource
    /// Where requests go: `AppStoreConnectClient.productionURL` unless a fake's or a proxy's.
    public var baseURL: URL

    /// The settings of a key.
    public init(issuerID: String?, keyID: String, individual: Bool = false, keySource: KeySource,
                baseURL: URL = AppStoreConnectClient.productionURL) {
        self.issuerID = issuerID
        self.keyID = keyID
        self.individual = individual
        self.keySource = keySource
        self.baseURL = baseURL
    }

    /// What `baseURL(_:)` accepts, for messages: "'x' is not an http:// or https:// URL".
    public static let baseURLRule = "an http:// or https:// URL"

    /// The base URL `text` names, or nil unless it is an http:// or https:// URL with a host.
    /// The one rule for the CLI's `--api-url` and the steps' `api-url` and `notary-url` (http
    /// is allowed for a contract fake or a local proxy, as every other URL option of the steps).
    public static func baseURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            return nil
        }
        return url
    }

    /// Attempts per request after 5xx answers and dropped connections, for every client made
    /// here (the CLI's and the steps'). Four, not `RetryPolicy`'s default three: only requests
    /// that may be repeated are retried (`AppStoreConnectRetry.blindly`), so one more attempt
    /// costs nothing in safety, and App Store Connect's 5xx answers are often brief; a command
    /// and the step that does the same thing should give up at the same point.
    public static let attempts = 4

    /// The retry policy of the clients made here: `attempts` attempts, waiting through `sleep`.
    public static func retryPolicy(sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) })
        -> RetryPolicy {
        RetryPolicy(attempts: attempts, sleep: sleep)
    }

    /// Checks the key id and issuer id offline, without the private key.
    /// - Throws: `AppStoreConnectKeyError` naming the value.
    public func checkIdentifiers() throws {
        try AppStoreConnectKey.checkIdentifiers(issuerID: issuerID, keyID: keyID, individual: individual)
    }

    /// The key: its text parsed, or its file read and parsed.
    /// - Throws: `AppStoreConnectKeyError` naming the file, option or variable.
    public func loadKey() throws -> AppStoreConnectKey {
        switch keySource {
        case let .text(text, source):
            return try AppStoreConnectKey(issuerID: issuerID, keyID: keyID, privateKeyPEM: text, source: source, individual: individual)
        case let .file(path):
            return try AppStoreConnectKey.load(issuerID: issuerID, keyID: keyID, file: path, individual: individual)
        }
    }

    /// A client for `key` at `baseURL`, with the retry policy above.
    /// - Parameters:
    ///   - onNewToken: told every token made, before it is sent (to mask it).
    ///   - log: told about waits and retries.
    public static func client(key: AppStoreConnectKey, baseURL: URL, http: any HTTPClient,
                              sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
                              now: @escaping @Sendable () -> Date = { Date() },
                              onNewToken: (@Sendable (AppStoreConnectToken) -> Void)? = nil,
                              log: @escaping @Sendable (String) -> Void) -> AppStoreConnectClient {
        let tokens = AppStoreConnectTokenProvider(key: key, now: now, onNewToken: onNewToken)
        return AppStoreConnectClient(tokens: tokens, http: http, baseURL: baseURL, retry: retryPolicy(sleep: sleep), now: now, log: log)
    }

    /// A client for `key` at these settings' base URL (see the static `client`).
    public func client(key: AppStoreConnectKey, http: any HTTPClient,
                       sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
                       now: @escaping @Sendable () -> Date = { Date() },
                       onNewToken: (@Sendable (AppStoreConnectToken) -> Void)? = nil,
                       log: @escaping @Sendable (String) -> Void) -> AppStoreConnectClient {
        Self.client(key: key, baseURL: baseURL, http: http, sleep: sleep, now: now, onNewToken: onNewToken, log: log)
    }
}
