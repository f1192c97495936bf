import Basics
import Foundation

/// Which gpg key signs.
public enum GPGKey: Sendable, Hashable {
    /// A key already in the keyring (`GNUPGHOME`), by id, fingerprint or user id.
    case identifier(String)
    /// An armored secret key (`-----BEGIN PGP PRIVATE KEY BLOCK-----`), imported into a
    /// throwaway keyring for the signing and removed afterwards.
    case armored(String)

    /// A key from an option's value: armored text, else an identifier.
    public init(optionValue: String) {
        self = optionValue.contains("-----BEGIN PGP PRIVATE KEY BLOCK-----") ? .armored(optionValue) : .identifier(optionValue)
    }
}

/// Detached, armored signatures (`FILE.asc`) made by the `gpg` executable. The passphrase goes
/// to gpg on its standard input (`--pinentry-mode loopback --passphrase-fd 0`), never on the
/// command line, where other users could read it.
public struct GPGSigner: Signer {
    private let key: GPGKey
    private let passphrase: String?
    private let processRunner: any ProcessRunner
    private let environment: Environment
    private let fileSystem: any FileSystem
    private let streams: any FileStreams
    private let executable: String

    /// A signer.
    public init(key: GPGKey, passphrase: String?, processRunner: any ProcessRunner, environment: Environment,
                fileSystem: any FileSystem, streams: any FileStreams, executable: String = "gpg") {
        self.key = key
        self.passphrase = passphrase
        self.processRunner = processRunner
        self.environment = environment
        self.fileSystem = fileSystem
        self.streams = streams
        self.executable = executable
    }

    /// Signs each file into `FILE.asc`. Signatures are made beside their final names and moved
    /// into place only after every file was signed.
    /// - Throws: `PublishError.gpgWrongPassphrase`, `.gpgFailed`, `ProcessError`.
    public func sign(_ files: [String]) async throws -> [String] {
        switch key {
        case .identifier(let identity):
            return try await signAll(files, identity: identity, home: nil)
        case .armored(let text):
            let home = try streams.makeTemporaryDirectory(prefix: "slipway-gnupg")
            do {
                let identity = try await importKey(text, home: home)
                let signatures = try await signAll(files, identity: identity, home: home)
                await discardHome(home)
                return signatures
            } catch {
                await discardHome(home)
                throw error
            }
        }
    }

    private func signAll(_ files: [String], identity: String, home: String?) async throws -> [String] {
        var made: [(temporary: String, final: String)] = []
        defer { for entry in made { try? fileSystem.remove(entry.temporary) } }
        for file in files {
            let temporary = (file as NSString).deletingLastPathComponent + "/." + (file as NSString).lastPathComponent + ".asc.slipway"
            made.append((temporary, file + ".asc"))
            try await signOne(file, into: temporary, identity: identity, home: home)
        }
        for entry in made { try fileSystem.move(entry.temporary, to: entry.final) }
        made.removeAll()
        return files.map { $0 + ".asc" }
    }

    private func signOne(_ file: String, into output: String, identity: String, home: String?) async throws {
        var arguments = ["--batch", "--yes", "--pinentry-mode", "loopback", "--passphrase-fd", "0", "--status-fd", "1",
                         "--local-user", identity, "--armor", "--detach-sign", "--output", output, file]
        if let home { arguments = ["--homedir", home] + arguments }
        let spec = ProcessSpec(executable: executable, arguments: arguments, environment: environment.variables,
                               standardInput: Array(((passphrase ?? "") + "\n").utf8))
        let result = try await processRunner.run(spec)
        guard result.status.isSuccess else {
            if Self.isBadPassphrase(status: result.outputText) { throw PublishError.gpgWrongPassphrase(key: displayName(identity)) }
            let reason = result.errorText.split(separator: "\n").last { $0.hasPrefix("gpg: ") }.map { String($0.dropFirst(5)) }
            throw PublishError.gpgFailed(file: file, reason: reason ?? "gpg exited with \(result.status)")
        }
    }

    /// Imports an armored secret key into `home`; returns its fingerprint.
    private func importKey(_ text: String, home: String) async throws -> String {
        let spec = ProcessSpec(executable: executable, arguments: ["--homedir", home, "--batch", "--status-fd", "1", "--import"],
                               environment: environment.variables, standardInput: Array(text.utf8))
        let result = try await processRunner.run(spec)
        let fingerprint = result.outputText.split(separator: "\n")
            .first { $0.hasPrefix("[GNUPG:] IMPORT_OK ") }
            .flatMap { $0.split(separator: " ").last.map(String.init) }
        guard result.status.isSuccess, let fingerprint else {
            let reason = result.errorText.split(separator: "\n").last { $0.hasPrefix("gpg: ") }.map { String($0.dropFirst(5)) }
            throw PublishError.gpgImportFailed(reason: reason ?? "gpg exited with \(result.status)")
        }
        return fingerprint
    }

    /// gpg reports a wrong passphrase as `BAD_PASSPHRASE`, or as a `FAILURE`/`ERROR` status
    /// whose error code (the low 16 bits) is GPG_ERR_BAD_PASSPHRASE, 11.
    static func isBadPassphrase(status: String) -> Bool {
        for line in status.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard words.count >= 2, words[0] == "[GNUPG:]" else { continue }
            if words[1] == "BAD_PASSPHRASE" { return true }
            if words[1] == "FAILURE" || words[1] == "ERROR", let code = words.last.flatMap({ Int($0) }), code & 0xFFFF == 11 {
                return true
            }
        }
        return false
    }

    private func displayName(_ identity: String) -> String {
        if case .armored = key { return "imported \(identity)" }
        return identity
    }

    /// Stops the gpg-agent a throwaway keyring started, then removes the keyring.
    private func discardHome(_ home: String) async {
        let spec = ProcessSpec(executable: "gpgconf", arguments: ["--homedir", home, "--kill", "gpg-agent"],
                               environment: environment.variables)
        _ = try? await processRunner.run(spec)
        try? fileSystem.remove(home)
    }
}
