import CLibgit2
import Foundation

/// Who made a commit or a tag, and when.
public struct GitSignature: Sendable, Hashable {
    /// The person's name, e.g. `Ada Lovelace`.
    public let name: String
    /// The person's email address.
    public let email: String
    /// The moment of the action.
    public let date: Date
    /// The time-zone offset recorded with `date`, in minutes east of UTC.
    public let timeZoneOffsetMinutes: Int

    /// Creates a signature; `date` defaults to now and the offset to the current time zone's.
    public init(name: String, email: String, date: Date = Date(), timeZoneOffsetMinutes: Int? = nil) {
        self.name = name
        self.email = email
        self.date = date
        self.timeZoneOffsetMinutes = timeZoneOffsetMinutes
            ?? TimeZone.current.secondsFromGMT(for: date) / 60
    }

    /// Copies a signature out of libgit2.
    init(_ raw: git_signature) {
        name = string(raw.name) ?? ""
        email = string(raw.email) ?? ""
        date = Date(timeIntervalSince1970: TimeInterval(raw.when.time))
        timeZoneOffsetMinutes = Int(raw.when.offset)
    }

    /// Hands `body` a libgit2 signature built from this value, freed afterwards.
    func withRaw<T>(_ body: (UnsafeMutablePointer<git_signature>) throws -> T) throws -> T {
        var raw: UnsafeMutablePointer<git_signature>?
        // Clamped rather than trapping: the date and offset may come from user input.
        let seconds = git_time_t(exactly: date.timeIntervalSince1970.rounded(.down)) ?? 0
        let offset = Int32(clamping: max(-24 * 60, min(24 * 60, timeZoneOffsetMinutes)))
        try check(git_signature_new(&raw, name, email, seconds, offset)) {
            .invalidName(kind: "author identity", name: "\(name) <\(email)>", libgit2: $0.message)
        }
        guard let raw else {
            throw GitError.invalidName(kind: "author identity", name: "\(name) <\(email)>", libgit2: "no signature")
        }
        defer { git_signature_free(raw) }
        return try body(raw)
    }
}

extension GitRepository {
    /// The identity git would use here: as git does, `GIT_AUTHOR_NAME`/`GIT_AUTHOR_EMAIL` (or the
    /// `GIT_COMMITTER_` pair) from `environment` when set (CI runners often set them), else
    /// `user.name` and `user.email` from the repository's, the user's and the system's
    /// configuration; dated now.
    /// - Parameter environment: the environment of whoever commits: a step's environment, or
    ///   the command's process environment.
    /// - Throws: `GitError.signatureUnavailable` when no identity is configured.
    public func defaultSignature(environment: [String: String]) throws -> GitSignature {
        try withHandle { repo in try self.defaultSignature(repo, environment: environment) }
    }

    /// `defaultSignature(environment:)` with the lock already held.
    func defaultSignature(_ repo: OpaquePointer, environment: [String: String]) throws -> GitSignature {
        for prefix in ["GIT_AUTHOR_", "GIT_COMMITTER_"] {
            if let name = environment[prefix + "NAME"], !name.isEmpty, let email = environment[prefix + "EMAIL"], !email.isEmpty {
                return GitSignature(name: name, email: email)
            }
        }
        var raw: UnsafeMutablePointer<git_signature>?
        try check(git_signature_default(&raw, repo)) {
            .signatureUnavailable(repository: self.displayPath, libgit2: $0.message)
        }
        guard let raw else {
            throw GitError.signatureUnavailable(repository: displayPath, libgit2: "no identity configured")
        }
        defer { git_signature_free(raw) }
        return GitSignature(raw.pointee)
    }
}
