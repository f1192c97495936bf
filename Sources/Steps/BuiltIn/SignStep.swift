import Basics
import Foundation
import Publish

/// `sign`: detached signatures with a signify ed25519 key or a gpg key.
public struct SignStep: Step {
    public static let description = StepDescription(
        id: "sign",
        summary: "Sign release files (signify-compatible ed25519, or gpg)",
        discussion: """
            ed25519 writes FILE.sig, verifiable with 'signify -V -p KEY.pub -m FILE' (and, with \
            minisign: true, FILE.minisig for 'minisign -V -p KEY.pub -m FILE'); make a key pair \
            with 'slipway keys generate'. gpg writes FILE.asc, a detached armored signature \
            ('gpg --verify FILE.asc FILE'). The key is a key file's path or the key itself: keep \
            it in a secret and pass it as key: "${{ secrets.SIGNING_KEY }}" with the passphrase \
            in another secret (passphrase: "${{ secrets.SIGNING_KEY_PASSPHRASE }}"). For gpg the \
            key may also be an id or e-mail address in the keyring (GNUPGHOME). Passphrases go to \
            gpg on a pipe, never on its command line. Every file is signed before any signature \
            is written; signature files matched by the patterns are not signed again. macOS \
            code signing is the separate step sign.codesign.
            """,
        options: [
            .optional("backend", .choice(["ed25519", "gpg"]), default: .string("ed25519"), "How to sign."),
            .required("files", .list(.string), "The files or patterns (dist/*.tar.gz; rules in docs/patterns.md) to sign."),
            .required("key", .string, "A key file's path, or the key itself (from a secret); for gpg also a key id."),
            .optional("passphrase", .string, "The key's passphrase (from a secret)."),
            .optional("public-key", .string, "ed25519: a public key file to check every new signature against."),
            .optional("minisign", .bool, default: .bool(false), "ed25519: also write FILE.minisig for minisign."),
            .optional("trusted-comment", .string, default: .string("file:{file}"), "ed25519: minisign's signed comment; {file} is the file's name."),
            .optional("comment", .string, "ed25519: the untrusted comment of each .sig (default: verify with KEY.pub)."),
        ],
        outputs: [OutputSpec("signatures", "The signature files written, one path per line.", file: true)],
        examples: [
            StepExample("Sign archives with a signify key file", """
                - sign: { files: ["dist/*.tar.gz"], key: keys/release.sec, public-key: keys/release.pub }
                """),
            StepExample("Signatures for signify and minisign", """
                - sign: { files: ["dist/*"], key: keys/release.sec, minisign: true }
                """),
            StepExample("A gpg key from the keyring", """
                - sign: { backend: gpg, files: [dist/SHA256SUMS], key: releases@example.com }
                """),
        ]
    )

    let backend: String
    let files: [String]
    let key: String
    let passphrase: String?
    let publicKey: String?
    let minisign: Bool
    let trustedComment: String
    let comment: String?

    public init(options: StepOptions) throws {
        backend = try options.requiredString("backend")
        files = try options.strings("files")
        key = try options.requiredString("key")
        passphrase = try options.string("passphrase")
        publicKey = try options.string("public-key")
        minisign = try options.bool("minisign")
        trustedComment = try options.requiredString("trusted-comment")
        comment = try options.string("comment")
        guard !files.isEmpty else { throw StepError.invalidOption(name: "files", problem: "is empty. List the files to sign.") }
        guard !key.isEmpty else { throw StepError.invalidOption(name: "key", problem: "is empty. Give a key file or a secret holding the key.") }
        if backend == "gpg" {
            for (name, given) in [("public-key", publicKey != nil), ("minisign", minisign), ("comment", comment != nil)] where given {
                throw StepError.invalidOption(name: name, problem: "applies to backend ed25519, not gpg")
            }
        }
    }

    public func plan(in context: StepContext) throws -> [Effect] {
        let suffix = backend == "gpg" ? ".asc" : (minisign ? ".sig and .minisig" : ".sig")
        return [Effect(.write, "\(suffix) signature (\(backend)) for each of \(files.joined(separator: ", "))")]
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        let targets = try PublishStepSupport.files(files, in: context).map(\.path).filter { !PublishStepSupport.isSignature($0) }
        guard !targets.isEmpty else { throw PublishError.noMatch(pattern: files.joined(separator: ", ")) }
        let signer = backend == "gpg" ? try gpgSigner(context) : try ed25519Signer(context)
        let written = try await signer.sign(targets)
        if backend == "ed25519", let publicKey { try verify(written, publicKey: publicKey, context: context) }
        for path in written { context.events.log(.info, "wrote \(PublishStepSupport.display(path, in: context))") }
        return ["signatures": written.map { PublishStepSupport.display($0, in: context) }.joined(separator: "\n")]
    }

    /// The key's text and where it came from: the option holds the key itself (several lines,
    /// or containing `marker`), or a file's path; nil when it is neither.
    private func keyText(_ context: StepContext, marker: String) throws -> (String, KeySource)? {
        if key.contains(marker) || key.contains("\n") { return (key, .inline(option: "key")) }
        let path = context.resolve(key)
        guard context.fileSystem.kind(of: path) == .file else { return nil }
        return (try context.fileSystem.readText(path), .file(key))
    }

    private func ed25519Signer(_ context: StepContext) throws -> any Signer {
        guard let (text, source) = try keyText(context, marker: "untrusted comment:") else {
            // The runner masks the value if it was a secret after all.
            throw StepError.invalidOption(name: "key", problem: "'\(key)' is neither a key file (there is no such file) nor a key's text. "
                + "Give the path of a signify secret key, or the key file's text from a secret")
        }
        let secret = try SignifySecretKey(text: text, source: source)
        let pair = try secret.decrypt(passphrase: passphrase.map { Array($0.utf8) }, source: source)
        let untrusted = comment ?? "verify with \(Self.publicKeyName(for: source))"
        return Ed25519Signer(pair: pair, options: Ed25519SignerOptions(comment: untrusted, minisign: minisign, trustedComment: trustedComment),
                             fileSystem: context.fileSystem, streams: LocalFileStreams())
    }

    private func gpgSigner(_ context: StepContext) throws -> any Signer {
        let gpgKey: GPGKey
        if let (text, _) = try keyText(context, marker: "-----BEGIN PGP PRIVATE KEY BLOCK-----") {
            gpgKey = .armored(text)
        } else {
            gpgKey = .identifier(key)
        }
        return GPGSigner(key: gpgKey, passphrase: passphrase, processRunner: context.processRunner, environment: context.environment,
                         fileSystem: context.fileSystem, streams: LocalFileStreams())
    }

    private func verify(_ signatures: [String], publicKey: String, context: StepContext) throws {
        let path = context.resolve(publicKey)
        let key = try SignifyPublicKey(text: try context.fileSystem.readText(path), source: .file(publicKey))
        let verifier = SignifyVerifier(streams: LocalFileStreams())
        for signature in signatures where signature.hasSuffix(".sig") {
            try verifier.verify(file: String(signature.dropLast(4)), signatureText: try context.fileSystem.readText(signature),
                                signaturePath: signature, publicKey: key)
        }
    }

    /// signify's convention: `release.sec` is verified with `release.pub`.
    static func publicKeyName(for source: KeySource) -> String {
        guard case .file(let path) = source else { return "the release public key" }
        let name = (path as NSString).lastPathComponent
        return (name.hasSuffix(".sec") ? String(name.dropLast(4)) : name) + ".pub"
    }
}
