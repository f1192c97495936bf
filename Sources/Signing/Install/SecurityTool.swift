import Basics
import Foundation

/// One argument of a `security` command line: shown as is, or a password, passed to the
/// process but shown as `***` wherever the command line is printed.
struct SecurityArgument: Sendable, ExpressibleByStringLiteral {
    let value: String
    let isSecret: Bool

    init(stringLiteral value: String) { self.init(value) }
    init(_ value: String, isSecret: Bool = false) {
        self.value = value
        self.isSecret = isSecret
    }

    static func secret(_ value: String) -> SecurityArgument { SecurityArgument(value, isSecret: true) }
    static func plain(_ values: [String]) -> [SecurityArgument] { values.map { SecurityArgument($0) } }
}

/// macOS's `security` command (`man security`), run through a `ProcessRunner` so it never
/// blocks a cooperative thread and tests can put a stand-in in its place.
///
/// Passwords reach `security` as arguments, as fastlane passes them (visible to `ps` run by the
/// same user while the command runs). They never reach errors: command lines are shown with
/// passwords as `***` and `security`'s messages are masked with `redactor`.
struct SecurityTool: Sendable {
    var executable: String
    var runner: any ProcessRunner
    var environment: [String: String]
    var redactor: Redactor

    /// Runs `security SUBCOMMAND ARGUMENTS` and returns its result, successful or not.
    func attempt(_ subcommand: String, _ arguments: [SecurityArgument]) async throws -> ProcessResult {
        let spec = ProcessSpec(executable: executable, arguments: [subcommand] + arguments.map(\.value), environment: environment)
        do {
            return try await runner.run(spec)
        } catch let error as ProcessError {
            throw SigningInstallError.securityUnavailable(executable: executable, detail: redactor.redact("\(error)"))
        }
    }

    /// Runs `security SUBCOMMAND ARGUMENTS`; throws `SigningInstallError.securityFailed` unless it exits 0.
    @discardableResult
    func run(_ subcommand: String, _ arguments: [SecurityArgument]) async throws -> ProcessResult {
        let result = try await attempt(subcommand, arguments)
        guard result.status.isSuccess else { throw failure(subcommand, arguments, result) }
        return result
    }

    /// The error for a failed run: the masked command line and standard error.
    func failure(_ subcommand: String, _ arguments: [SecurityArgument], _ result: ProcessResult) -> SigningInstallError {
        let shown = ["security", subcommand] + arguments.map { $0.isSecret ? Redactor.mask : ShellQuoting.quote($0.value) }
        var message = result.errorText.trimmingCharacters(in: .whitespacesAndNewlines)
        if message.isEmpty { message = result.outputText.trimmingCharacters(in: .whitespacesAndNewlines) }
        for secret in arguments where secret.isSecret && !secret.value.isEmpty {
            message = message.replacingOccurrences(of: secret.value, with: Redactor.mask)
        }
        return .securityFailed(subcommand: subcommand, command: shown.joined(separator: " "),
                               status: "\(result.status)", message: redactor.redact(message))
    }

    /// The keychains `list-keychains` or `default-keychain` printed, one a line, indented and
    /// in double quotes.
    static func keychainPaths(_ output: String) -> [String] {
        output.split(whereSeparator: \.isNewline).compactMap { line in
            var path = line.trimmingCharacters(in: .whitespaces)
            if path.count >= 2, path.hasPrefix("\""), path.hasSuffix("\"") { path = String(path.dropFirst().dropLast()) }
            return path.isEmpty ? nil : path
        }
    }

    /// The user's keychain search list.
    func searchList() async throws -> [String] {
        Self.keychainPaths(try await run("list-keychains", ["-d", "user"]).outputText)
    }

    /// The user's default keychain, or nil when there is none.
    func defaultKeychain() async throws -> String? {
        let result = try await attempt("default-keychain", ["-d", "user"])
        guard result.status.isSuccess else { return nil }
        return Self.keychainPaths(result.outputText).first
    }

    /// Sets the user's search list.
    func setSearchList(_ paths: [String]) async throws {
        try await run("list-keychains", ["-d", "user", "-s"] + SecurityArgument.plain(paths))
    }

    /// Sets the user's default keychain.
    func setDefaultKeychain(_ path: String) async throws {
        try await run("default-keychain", ["-d", "user", "-s", SecurityArgument(path)])
    }
}
