import Foundation

/// One entry of the `errors` array App Store Connect answers with.
public struct AppStoreConnectAPIError: Sendable, Hashable, Codable {
    /// The HTTP status as a string, e.g. `"409"`.
    public var status: String?
    /// Apple's machine-readable code, e.g. `ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE`.
    public var code: String?
    /// A short summary.
    public var title: String?
    /// The specific explanation.
    public var detail: String?

    /// Creates an entry.
    public init(status: String? = nil, code: String? = nil, title: String? = nil, detail: String? = nil) {
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
    }

    /// `CODE: title — detail`, leaving out what is absent.
    public var summary: String {
        let words = [title, detail].compactMap { $0 }.filter { !$0.isEmpty }
        let text = words.count == 2 && words[1].hasPrefix(words[0]) ? words[1] : words.joined(separator: " — ")
        switch (code, text.isEmpty) {
        case (let code?, false): return "\(code): \(text)"
        case (let code?, true): return code
        default: return text
        }
    }

    /// The `errors` of an error document; empty when the body is not one.
    public static func list(in body: [UInt8]) -> [AppStoreConnectAPIError] {
        struct Document: Decodable { var errors: [AppStoreConnectAPIError] }
        guard body.count <= AppStoreConnectResponse.maximumDocumentBytes else { return [] }
        return (try? JSONDecoder().decode(Document.self, from: Data(body)))?.errors ?? []
    }
}

/// Why an App Store Connect call failed. Each message names the call and says what to do.
public enum AppStoreConnectError: Error, LocalizedError, Sendable, Equatable {
    /// 403: the key's role does not allow the call.
    case forbidden(action: String, keyID: String, roles: [String], errors: [AppStoreConnectAPIError])
    /// 401 again after a fresh token: the key itself is not accepted.
    case keyRejected(keyID: String, issuerID: String?, errors: [AppStoreConnectAPIError])
    /// Another 4xx answer (400, 404, 409, 422...): the request is wrong; never retried.
    case refused(action: String, status: Int, errors: [AppStoreConnectAPIError], body: String)
    /// 5xx answers or dropped connections until the attempts ran out.
    case unavailable(action: String, attempts: Int, reason: String)
    /// A 5xx answer or a dropped connection to a request that is never retried blindly
    /// (`AppStoreConnectRetry.never`): Apple may or may not have acted on it.
    case notRetried(action: String, reason: String)
    /// 429 answers until the allowed waits ran out.
    case rateLimited(action: String, waits: Int, rateLimit: AppStoreConnectRateLimit?)
    /// The answer could not be understood.
    case unexpectedResponse(action: String, problem: String)
    /// No app on the account has the bundle id.
    case appNotFound(bundleID: String)
    /// A resource (or a relationship's linkage) in the answer has no id, or an empty one: the
    /// flow would pass it on to the next call, so it stops here.
    case missingID(action: String, what: String)

    /// The HTTP status behind the error, when there was one.
    public var status: Int? {
        switch self {
        case .forbidden: return 403
        case .keyRejected: return 401
        case .refused(_, let status, _, _): return status
        case .rateLimited: return 429
        default: return nil
        }
    }

    /// Apple's error entries behind the error.
    public var apiErrors: [AppStoreConnectAPIError] {
        switch self {
        case .forbidden(_, _, _, let errors), .keyRejected(_, _, let errors), .refused(_, _, let errors, _): return errors
        default: return []
        }
    }

    public var errorDescription: String? {
        switch self {
        case let .forbidden(action, keyID, roles, errors):
            let need = roles.isEmpty ? "a role that allows it" : "the \(Self.list(roles)) role"
            return "App Store Connect refused to let the key '\(keyID)' \(action) (HTTP 403\(Self.details(errors))). "
                + "The key lacks \(need): give the key that role in Users and Access → Integrations, or use a key that has it."
        case let .keyRejected(keyID, issuerID, errors):
            let issuer = issuerID.map { " with issuer id '\($0)'" } ?? " (an individual key)"
            return "App Store Connect rejected the key '\(keyID)'\(issuer) twice, with a fresh token each time (HTTP 401"
                + "\(Self.details(errors))). The key was rejected: check the key id and issuer id, that the .p8 file is "
                + "this key's, and that the key has not been revoked (Users and Access → Integrations)."
        case let .refused(action, status, errors, body):
            let detail = errors.isEmpty ? Self.excerpt(body) : Self.details(errors)
            return "App Store Connect refused to \(action) (HTTP \(status)\(detail)). Correct the request; it is not retried."
        case let .unavailable(action, attempts, reason):
            return "could not \(action) on App Store Connect after \(attempts) attempts: \(reason). "
                + "Apple's service may be down (https://developer.apple.com/system-status/); try again later."
        case let .notRetried(action, reason):
            return "App Store Connect failed to \(action) (\(reason)). It was not retried: Apple may have acted on it, "
                + "and sending it again could do it twice."
        case let .rateLimited(action, waits, rateLimit):
            let limit = rateLimit.map { " (limit \($0.limit) requests an hour)" } ?? ""
            return "App Store Connect kept answering 'too many requests' to \(action) after \(waits) waits\(limit). "
                + "Other tools may share this key's hourly budget: try again later, or use another key."
        case let .unexpectedResponse(action, problem):
            return "App Store Connect's answer to \(action) could not be understood: \(problem)."
        case let .missingID(action, what):
            return "App Store Connect's answer to \(action) has \(what) without an id; slipway does not go on with an empty id. "
                + "Run again; if it happens again, check that the API's address points at App Store Connect and report the answer (slipway --verbose)."
        case let .appNotFound(bundleID):
            return "no app on this App Store Connect account has the bundle id '\(bundleID)'. Check the bundle id, "
                + "that the key belongs to the right team, or create the app in App Store Connect (Apps → +) first."
        }
    }

    private static func details(_ errors: [AppStoreConnectAPIError]) -> String {
        let text = errors.map(\.summary).filter { !$0.isEmpty }.joined(separator: "; ")
        return text.isEmpty ? "" : ": " + text
    }

    private static func excerpt(_ body: String) -> String {
        let text = body.trimmingCharacters(in: .whitespacesAndNewlines).prefix(200)
        return text.isEmpty ? "" : ": \(text)"
    }

    private static func list(_ items: [String]) -> String {
        guard items.count > 1, let last = items.last else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " or " + last
    }
}
