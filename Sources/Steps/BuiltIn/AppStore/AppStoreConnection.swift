import AppleAPI
import Basics
import Foundation

/// The App Store Connect key and API URL the appstore.* steps, apple.notarize and signing.sync
/// share: the options they declare, parsed into `AppStoreConnectSettings` (as the CLI's
/// `--key-id`... options are) and checked once when the step is made (offline: the ids and an
/// inline key parse), the key read again in a context (a key file), and the client made from
/// them, as `XcodeSchemeOptions` does for the xcode.* steps.
struct AppStoreConnection: Sendable {
    /// Which API the client talks to, and the option that names its base URL.
    enum API: Sendable {
        /// App Store Connect's API (`api-url`).
        case appStoreConnect
        /// The Notary API (`notary-url`), on App Store Connect's host.
        case notary

        /// The option that holds the base URL.
        var urlOption: String {
            switch self {
            case .appStoreConnect: return "api-url"
            case .notary: return "notary-url"
            }
        }

        /// The base URL when the option is not given.
        var defaultURL: String {
            switch self {
            case .appStoreConnect: return AppStoreConnectClient.productionURL.absoluteString
            case .notary: return NotaryClient.productionURL.absoluteString
            }
        }
    }

    /// The key and connection options, for App Store Connect's API (with `api-url`) or for the
    /// Notary API (whose step declares `notaryURLSpec` among its own options). With
    /// `keyIDRequired` false (signing.sync, whose read-only runs need no key), every option is
    /// optional.
    static func specs(_ api: API = .appStoreConnect, keyIDRequired: Bool = true) -> [OptionSpec] {
        var specs: [OptionSpec] = [
            .optional("issuer-id", .string, "The API key's issuer id (team keys; from a secret or the lane's env)."),
            keyIDRequired
                ? .required("key-id", .string, "The API key's id (10 characters).")
                : .optional("key-id", .string, "The API key's id (10 characters); needed unless read-only."),
            .optional("key", .string, "The .p8 private key's text, from a secret: \"${{ secrets.ASC_KEY }}\"."),
            .optional("key-file", .string, "The .p8 private key file (instead of key)."),
            .optional("individual", .bool, default: .bool(false), "The key is an individual key (no issuer id)."),
        ]
        if api == .appStoreConnect {
            specs.append(.optional("api-url", .string, default: .string(API.appStoreConnect.defaultURL), "The API's base URL."))
        }
        return specs
    }

    /// An example of a step that uses a team key: `yaml` (one step entry) with `issuer-id`,
    /// `key-id` and `key` (from a secret) added at its end.
    static func example(_ title: String, _ yaml: String) -> StepExample {
        StepExample(title, yaml + """

                issuer-id: 69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1
                key-id: ABC123DEFG
                key: "${{ secrets.ASC_KEY }}"
            """)
    }

    /// apple.notarize's `notary-url` option.
    static let notaryURLSpec = OptionSpec.optional("notary-url", .string, default: .string(API.notary.defaultURL), "The Notary API's host.")

    private let options: StepOptions
    private let parsedBaseURL: Result<URL, any Error>
    private let missingKey: StepError

    /// The connection of a step that always needs a key: the key and the base URL are checked
    /// now, offline.
    /// - Throws: `StepError.invalidOption` naming the option.
    init(options: StepOptions, api: API = .appStoreConnect) throws {
        try Self.key(options, context: nil)
        self.options = options
        parsedBaseURL = Result { try Self.url(options, api) }
        _ = try parsedBaseURL.get()
        missingKey = .invalidOption(name: "key", problem: "no key was given")
    }

    /// The connection of signing.sync, whose read-only runs need no key: a key is checked now
    /// only when `key-id` is given, and the API URL only when the client is made (as before, a
    /// read-only run never reads it).
    /// - Throws: `StepError.invalidOption` naming the option.
    init(optionalKeyIn options: StepOptions) throws {
        if try options.string("key-id") != nil { try Self.key(options, context: nil) }
        self.options = options
        parsedBaseURL = Result { try Self.url(options, .appStoreConnect) }
        missingKey = .invalidOption(name: "key-id", problem: "a sync that may create certificates and profiles needs an App Store "
            + "Connect key (key-id with key or key-file); set readonly: true to use only what the storage has")
    }

    /// The API's base URL.
    /// - Throws: `StepError.invalidOption` naming the URL option when it is not an http(s) URL.
    var baseURL: URL {
        get throws { try parsedBaseURL.get() }
    }

    /// The key, checked offline in `context` (a key file is read and parsed); nil when no key
    /// is given (only possible without `key-id`).
    /// - Throws: `StepError.invalidOption` naming the option.
    @discardableResult
    func key(in context: StepContext) throws -> AppStoreConnectKey? {
        guard try options.string("key-id") != nil else { return nil }
        return try Self.key(options, context: context)
    }

    /// The key, which the client needs.
    /// - Throws: `StepError.invalidOption` when there is none (naming `key` for the appstore.*
    ///   steps, `key-id` for signing.sync), or naming the option that is wrong.
    @discardableResult
    func requireKey(in context: StepContext) throws -> AppStoreConnectKey {
        guard let key = try key(in: context) else { throw missingKey }
        return key
    }

    /// A client for the key and base URL, whose waits and retries are logged to the step's
    /// events (see `client(key:baseURL:context:)`).
    /// - Throws: as `requireKey`, and `baseURL`.
    func client(context: StepContext) async throws -> AppStoreConnectClient {
        let key = try requireKey(in: context)
        return await Self.client(key: key, baseURL: try baseURL, context: context)
    }

    /// A client whose waits and retries are logged to the step's events, through the context's
    /// services. Inside `AppStoreStepSupport.masked`, the key's text and lines and every token
    /// made from it are masked from then on.
    static func client(key: AppStoreConnectKey, baseURL: URL, context: StepContext) async -> AppStoreConnectClient {
        let events = context.events, services = context.services
        var onNewToken: (@Sendable (AppStoreConnectToken) -> Void)?
        if let masker = events as? DerivedSecretMasker {
            masker.add(key.secretsToMask)
            onNewToken = { masker.add([$0.value]) }
        }
        return AppStoreConnectSettings.client(key: key, baseURL: baseURL, http: services.httpClient, sleep: services.sleep,
                                              now: services.now, onNewToken: onNewToken, log: { events.log(.warning, $0) })
    }

    /// The key the options describe, checked offline; with no context (validation), only the
    /// ids and, when given inline, the key text are checked, and nil is returned for a key file.
    /// - Throws: `StepError.invalidOption` naming the option.
    @discardableResult
    private static func key(_ options: StepOptions, context: StepContext?) throws -> AppStoreConnectKey? {
        let keyText = try options.string("key"), keyFile = try options.string("key-file")
        guard (keyText == nil) != (keyFile == nil) else {
            throw StepError.invalidOption(name: keyText == nil ? "key" : "key-file", problem: "give exactly one of key (from a secret) or key-file")
        }
        let source: AppStoreConnectSettings.KeySource = keyText.map { .text($0, source: "in option 'key'") }
            ?? .file(context.map { $0.resolve(keyFile ?? "") } ?? keyFile ?? "")
        let settings = AppStoreConnectSettings(issuerID: try options.string("issuer-id"), keyID: try options.requiredString("key-id"),
                                               individual: try options.bool("individual"), keySource: source)
        do {
            try settings.checkIdentifiers()
            // A key from a secret is only there when the lane runs; a key file is read in a context.
            if let keyText, keyText.contains("${{") { return nil }
            if keyText == nil, context == nil { return nil }
            return try settings.loadKey()
        } catch let error as AppStoreConnectKeyError {
            let name: String
            switch error {
            case .missingIssuerID, .malformedIssuerID, .issuerIDForIndividualKey: name = "issuer-id"
            case .malformedKeyID: name = "key-id"
            default: name = keyText == nil ? "key-file" : "key"
            }
            throw StepError.invalidOption(name: name, problem: errorText(error))
        }
    }

    /// The base URL option, by `AppStoreConnectSettings.baseURL`'s rule (the CLI's `--api-url` too).
    /// - Throws: `StepError.invalidOption` naming it when it is not an http(s) URL.
    private static func url(_ options: StepOptions, _ api: API) throws -> URL {
        let text = try options.string(api.urlOption) ?? api.defaultURL
        guard let url = AppStoreConnectSettings.baseURL(text) else {
            throw StepError.invalidOption(name: api.urlOption, problem: "'\(text)' is not \(AppStoreConnectSettings.baseURLRule)")
        }
        return url
    }
}
