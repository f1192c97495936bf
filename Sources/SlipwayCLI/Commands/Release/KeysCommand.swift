import ArgumentParser
import Basics
import Foundation
import Publish

/// `slipway keys`: signing keys for the sign step.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Make signing keys for the sign step.",
        subcommands: [KeysGenerateCommand.self]
    )
}

/// `slipway keys generate`: a signify-compatible ed25519 key pair.
struct KeysGenerateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Make an ed25519 key pair (NAME.pub, NAME.sec) for the sign step.",
        discussion: """
            The files are signify's format: 'signify -V -p NAME.pub -m FILE' and \
            'minisign -V -p NAME.pub -m FILE' verify what the sign step signs with NAME.sec. \
            The secret key is encrypted with the passphrase in the environment variable named \
            by --passphrase-env (never an argument, which other users could read), and written \
            with mode 0600. Keep NAME.sec (or its text) in a CI secret; publish NAME.pub.

            Examples:
              SLIPWAY_KEY_PASSPHRASE=... slipway keys generate --output keys --name release
              slipway keys generate --no-passphrase --name ci
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("The folder to write the keys into.", valueName: "dir"))
    var output: String = "."

    @Option(help: "The keys' base name: NAME.pub and NAME.sec.")
    var name: String = "release"

    @Flag(help: "Leave the secret key unencrypted.")
    var noPassphrase = false

    @Option(help: ArgumentHelp("The environment variable holding the passphrase.", valueName: "variable"))
    var passphraseEnv: String = "SLIPWAY_KEY_PASSPHRASE"

    @Flag(help: "Replace existing key files.")
    var force = false

    func validate() throws {
        guard !name.isEmpty, !name.contains("/") else {
            throw ValidationError("--name must be a file name without '/', not '\(name)'.")
        }
    }

    func run() async throws {
        let env = global.environment()
        var passphrase: [UInt8]?
        if !noPassphrase {
            guard let value = env.environment[passphraseEnv], !value.isEmpty else {
                throw Failure.report(CommandInputError("the environment variable \(passphraseEnv) holds no passphrase. Set it, or pass "
                    + "--no-passphrase for an unencrypted key."), in: env)
            }
            passphrase = Array(value.utf8)
        }
        let directory = URL(fileURLWithPath: output, relativeTo: URL(fileURLWithPath: env.projectDirectory)).standardizedFileURL.path
        do {
            let paths = try SignifyKeyFiles(fileSystem: env.fileSystem, streams: LocalFileStreams())
                .write(directory: directory, name: name, passphrase: passphrase, overwrite: force)
            env.print("wrote \(paths.publicKey) and \(paths.secretKey)\(passphrase == nil ? " (not encrypted)" : " (passphrase-protected)")")
        } catch {
            throw Failure.report(error, in: env)
        }
    }
}
