import Basics
import Foundation

/// The `codesign` command line for one file. Building it is platform-independent (and tested
/// on Linux); running it needs macOS.
public struct CodesignCommand: Sendable, Hashable {
    /// The signing identity: a certificate's common name or SHA-1 hash, or `-` for ad-hoc.
    public var identity: String
    /// The keychain to search, or nil for the default list.
    public var keychain: String?
    /// An entitlements plist to embed.
    public var entitlements: String?
    /// `--options` flags, e.g. `runtime` (the hardened runtime notarization requires).
    public var options: [String]
    /// Ask Apple's server for a secure time stamp (needed for notarization).
    public var timestamp: Bool
    /// Sign nested code too (`--deep`; Apple discourages it for apps).
    public var deep: Bool
    /// The executable.
    public var executable: String

    /// Creates a command.
    public init(identity: String, keychain: String? = nil, entitlements: String? = nil, options: [String] = ["runtime"],
                timestamp: Bool = true, deep: Bool = false, executable: String = "/usr/bin/codesign") {
        self.identity = identity
        self.keychain = keychain
        self.entitlements = entitlements
        self.options = options
        self.timestamp = timestamp
        self.deep = deep
        self.executable = executable
    }

    /// The arguments that sign `path` (replacing any existing signature: re-running is safe).
    public func arguments(for path: String) -> [String] {
        var arguments = ["--sign", identity, "--force"]
        if let keychain { arguments += ["--keychain", keychain] }
        if let entitlements { arguments += ["--entitlements", entitlements] }
        if !options.isEmpty { arguments += ["--options", options.joined(separator: ",")] }
        arguments.append(timestamp ? "--timestamp" : "--timestamp=none")
        if deep { arguments.append("--deep") }
        arguments += ["--", path]
        return arguments
    }

    /// The process that signs `path`.
    public func spec(for path: String, environment: Environment) -> ProcessSpec {
        ProcessSpec(executable: executable, arguments: arguments(for: path), environment: environment.variables)
    }
}

/// Signs files in place with `codesign` (macOS only).
public struct CodesignSigner: Signer {
    private let command: CodesignCommand
    private let processRunner: any ProcessRunner
    private let environment: Environment

    /// A signer running `command` through `processRunner`.
    public init(command: CodesignCommand, processRunner: any ProcessRunner, environment: Environment) {
        self.command = command
        self.processRunner = processRunner
        self.environment = environment
    }

    /// Signs each file in place; returns the files.
    /// - Throws: `PublishError.codesignFailed` with codesign's last message.
    public func sign(_ files: [String]) async throws -> [String] {
        for file in files {
            let result = try await processRunner.run(command.spec(for: file, environment: environment))
            guard result.status.isSuccess else {
                let reason = result.errorText.split(separator: "\n").last.map(String.init) ?? "codesign exited with \(result.status)"
                throw PublishError.codesignFailed(file: file, reason: reason)
            }
        }
        return files
    }
}
