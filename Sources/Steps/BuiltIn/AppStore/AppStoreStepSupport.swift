import AppleAPI
import Basics
import Foundation
import Publish

/// The App Store Connect key options every appstore.* step takes, and the client made from them.
public enum AppStoreStepSupport {
    /// The key and connection options, shared by the appstore.* steps.
    public static let keyOptions: [OptionSpec] = [
        .optional("issuer-id", .string, "The API key's issuer id (team keys; from a secret or the lane's env)."),
        .required("key-id", .string, "The API key's id (10 characters)."),
        .optional("key", .string, "The .p8 private key's text, from a secret: \"${{ secrets.ASC_KEY }}\"."),
        .optional("key-file", .string, "The .p8 private key file (instead of key)."),
        .optional("individual", .bool, default: .bool(false), "The key is an individual key (no issuer id)."),
        .optional("api-url", .string, default: .string("https://api.appstoreconnect.apple.com"), "The API's base URL."),
    ]

    /// The key the options describe, checked offline; with no context (validation), only the
    /// ids and, when given inline, the key text are checked, and nil is returned for a key file.
    /// - Throws: `StepError.invalidOption` naming the option.
    @discardableResult
    static func key(_ options: StepOptions, context: StepContext?) throws -> AppStoreConnectKey? {
        let keyText = try options.string("key"), keyFile = try options.string("key-file")
        guard (keyText == nil) != (keyFile == nil) else {
            throw StepError.invalidOption(name: keyText == nil ? "key" : "key-file", problem: "give exactly one of key (from a secret) or key-file")
        }
        let issuer = try options.string("issuer-id"), keyID = try options.requiredString("key-id")
        let individual = try options.bool("individual")
        do {
            try AppStoreConnectKey.checkIdentifiers(issuerID: issuer, keyID: keyID, individual: individual)
            if let keyText, !keyText.contains("${{") {
                return try AppStoreConnectKey(issuerID: issuer, keyID: keyID, privateKeyPEM: keyText, source: "in option 'key'",
                                              individual: individual)
            }
            guard let context, let keyFile else { return nil }
            return try AppStoreConnectKey.load(issuerID: issuer, keyID: keyID, file: context.resolve(keyFile), individual: individual)
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

    /// The base URL option.
    static func apiURL(_ options: StepOptions) throws -> URL {
        let text = try options.string("api-url") ?? "https://api.appstoreconnect.apple.com"
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw StepError.invalidOption(name: "api-url", problem: "'\(text)' is not an http:// or https:// URL")
        }
        return url
    }

    /// A client whose waits and retries are logged to the step's events. Inside `masked`, the
    /// key's text and lines and every token made from it are masked from then on.
    static func client(key: AppStoreConnectKey, baseURL: URL, context: StepContext) async -> AppStoreConnectClient {
        let events = context.events, services = context.services
        let tokens = AppStoreConnectTokenProvider(key: key, now: services.now)
        if let masker = events as? DerivedSecretMasker {
            masker.add(key.secretsToMask)
            await tokens.onNewToken { masker.add([$0.value]) }
        }
        return AppStoreConnectClient(tokens: tokens, http: services.httpClient, baseURL: baseURL,
                                     retry: services.retryPolicy(4), now: services.now,
                                     log: { events.log(.warning, $0) })
    }

    /// Runs a step's work with its events, outputs and errors masked for the secrets it learns
    /// as it runs (a key read from a file, the tokens made from it), on top of the lane's
    /// declared secrets.
    static func masked(_ context: StepContext,
                       _ body: (StepContext, DerivedSecretMasker) async throws -> StepOutputs) async throws -> StepOutputs {
        let masker = DerivedSecretMasker(forwardingTo: context.events)
        var masked = context
        masked.events = masker
        do {
            return masker.redact(try await body(masked, masker))
        } catch {
            throw masker.redact(error)
        }
    }
}
