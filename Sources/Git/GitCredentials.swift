import CLibgit2
import Foundation

/// Credentials for talking to a remote over HTTPS. The password never appears in
/// `description`, so a credentials value can be logged safely.
public struct GitCredentials: Sendable, Hashable, CustomStringConvertible {
    /// The user name sent to the server.
    public let username: String
    /// The password or token sent to the server.
    public let password: String

    /// A user name and a password (or a personal access token used as one).
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// A token, sent as the password of the user `x-access-token`, which GitHub, GitLab and
    /// Gitea accept for tokens of every kind.
    public static func token(_ token: String) -> GitCredentials {
        GitCredentials(username: "x-access-token", password: token)
    }

    /// The user name and a masked password.
    public var description: String { "GitCredentials(username: \(username), password: ***)" }
}

/// State shared with libgit2's C callbacks during one network operation. libgit2 calls back on
/// the calling thread before the operation returns, so no locking is needed; the object is
/// handed over as an unretained context pointer and kept alive by the caller.
final class RemoteCallbackContext {
    let credentials: GitCredentials?
    private(set) var credentialAttempts = 0
    private(set) var rejections: [GitPushRejection] = []
    private(set) var updatedReferences: [String] = []
    private(set) var serverOutput = ""
    /// The ref updates libgit2 negotiated before sending the pack: remote ref, local and
    /// remote ids (zero id when the remote lacks the ref).
    private(set) var negotiatedUpdates: [(reference: String, local: git_oid, remote: git_oid)] = []

    init(credentials: GitCredentials?) {
        self.credentials = credentials
    }

    /// True when the server refused the credentials given (libgit2 asked for them again).
    var credentialsRefused: Bool { credentials != nil && credentialAttempts > 1 }

    /// Fills `callbacks` with the C functions below and this object as their payload.
    func install(into callbacks: inout git_remote_callbacks) {
        callbacks.payload = Unmanaged.passUnretained(self).toOpaque()
        // The out-parameter's type differs between libgit2 versions and build settings (a
        // typed pointer, or opaque when GIT_DEPRECATE_HARD hides the struct), so it is never
        // named here: the closure infers it and hands it straight back to libgit2.
        callbacks.credentials = { out, _, _, allowedTypes, payload in
            guard let out, let payload else { return GIT_PASSTHROUGH.rawValue }
            let context = Unmanaged<RemoteCallbackContext>.fromOpaque(payload).takeUnretainedValue()
            switch context.answerCredentialRequest(allowedTypes: allowedTypes) {
            case let .use(credentials):
                return git_credential_userpass_plaintext_new(out, credentials.username, credentials.password)
            case let .decline(code):
                return code
            }
        }
        callbacks.push_update_reference = { reference, status, payload in
            guard let payload else { return 0 }
            let context = Unmanaged<RemoteCallbackContext>.fromOpaque(payload).takeUnretainedValue()
            context.record(reference: string(reference) ?? "", status: string(status))
            return 0
        }
        callbacks.push_negotiation = { updates, count, payload in
            guard let payload, let updates else { return 0 }
            let context = Unmanaged<RemoteCallbackContext>.fromOpaque(payload).takeUnretainedValue()
            for position in 0..<count {
                guard let update = updates[position]?.pointee else { continue }
                context.negotiatedUpdates.append((string(update.dst_refname) ?? "", update.src, update.dst))
            }
            return 0
        }
        callbacks.sideband_progress = { text, length, payload in
            guard let payload, let text, length > 0 else { return 0 }
            let context = Unmanaged<RemoteCallbackContext>.fromOpaque(payload).takeUnretainedValue()
            let bytes = UnsafeRawBufferPointer(start: text, count: Int(length))
            context.serverOutput += String(decoding: bytes, as: UTF8.self)
            return 0
        }
    }

    /// Server output lines (hook messages, `error: ...`), without progress counters such as
    /// `Resolving deltas: 100% (3/3)`, joined with "; ".
    var serverMessages: String {
        serverOutput
            .split(whereSeparator: { $0 == "\n" || $0 == "\r" })
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !Self.isProgress($0) }
            .joined(separator: "; ")
    }

    /// True for a git progress line: `<label>: <number>%...`.
    private static func isProgress(_ line: String) -> Bool {
        guard let colon = line.range(of: ": ") else { return false }
        let rest = line[colon.upperBound...].drop { $0 == " " }
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        return !digits.isEmpty && rest.dropFirst(digits.count).first == "%"
    }

    /// What to answer when libgit2 asks for credentials.
    enum CredentialAnswer {
        case use(GitCredentials)
        case decline(Int32)
    }

    /// Counts the request and decides: the credentials on the first request, a refusal after
    /// that (libgit2 asks again when the server refused them, and would loop forever), and a
    /// pass when there are none or the server wants another kind (SSH keys).
    func answerCredentialRequest(allowedTypes: UInt32) -> CredentialAnswer {
        credentialAttempts += 1
        guard let credentials, allowedTypes & GIT_CREDENTIAL_USERPASS_PLAINTEXT.rawValue != 0 else {
            return .decline(GIT_PASSTHROUGH.rawValue)
        }
        guard credentialAttempts == 1 else { return .decline(GIT_EAUTH.rawValue) }
        return .use(credentials)
    }

    private func record(reference: String, status: String?) {
        if let status {
            rejections.append(GitPushRejection(reference: reference, message: status))
        } else {
            updatedReferences.append(reference)
        }
    }
}
