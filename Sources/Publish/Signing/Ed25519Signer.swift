import Basics
import Foundation

/// Signs files; each backend (signify ed25519, gpg, codesign) is one.
public protocol Signer: Sendable {
    /// Signs every file and returns the paths of the signatures written (for codesign, which
    /// signs in place, the files themselves). Either every signature is computed before the
    /// first is written, or the backend says otherwise.
    func sign(_ files: [String]) async throws -> [String]
}

/// What an ed25519 signer writes besides `FILE.sig`.
public struct Ed25519SignerOptions: Sendable, Hashable {
    /// The untrusted comment of each `.sig` (signify writes "verify with KEY.pub").
    public var comment: String
    /// Also write `FILE.minisig`, which `minisign -V` accepts (legacy, non-prehashed format).
    public var minisign: Bool
    /// The minisign trusted comment; `{file}` is replaced by the file's name.
    public var trustedComment: String

    /// Creates options.
    public init(comment: String, minisign: Bool = false, trustedComment: String = "file:{file}") {
        self.comment = comment
        self.minisign = minisign
        self.trustedComment = trustedComment
    }
}

/// Signs files with a signify key: `FILE.sig` verifiable with
/// `signify -V -p KEY.pub -m FILE` (and, with `minisign: true`, `FILE.minisig` verifiable with
/// `minisign -V -p KEY.pub -m FILE`). Ed25519 signs the whole message, so each file is
/// memory-mapped rather than read into memory.
public struct Ed25519Signer: Signer {
    private let pair: SignifyKeyPair
    private let options: Ed25519SignerOptions
    private let fileSystem: any FileSystem
    private let streams: any FileStreams

    /// A signer with a decrypted key.
    public init(pair: SignifyKeyPair, options: Ed25519SignerOptions, fileSystem: any FileSystem, streams: any FileStreams) {
        self.pair = pair
        self.options = options
        self.fileSystem = fileSystem
        self.streams = streams
    }

    /// Signs all files first, then writes the signatures (each atomically), so a file that
    /// cannot be read leaves no signature behind.
    /// - Throws: `FileSystemError` for unreadable files or unwritable signatures.
    public func sign(_ files: [String]) async throws -> [String] {
        var outputs: [(path: String, text: String)] = []
        for file in files {
            let signature = try streams.openForReading(file).withMappedBytes { try pair.sign($0) }
            let sig = SignifySignature(keyNumber: pair.keyNumber, signature: signature, comment: options.comment)
            outputs.append((file + ".sig", sig.text))
            if options.minisign {
                outputs.append((file + ".minisig", try minisignText(signature: signature, file: file)))
            }
        }
        for output in outputs { try fileSystem.writeAtomically(output.text, to: output.path) }
        return outputs.map(\.path)
    }

    /// minisign's format: the untrusted comment, the legacy `Ed` signature line (the same bytes
    /// as signify's), the trusted comment, and the global signature over signature ‖ trusted
    /// comment, which binds the trusted comment to the file's signature.
    private func minisignText(signature: [UInt8], file: String) throws -> String {
        let trusted = options.trustedComment.replacingOccurrences(of: "{file}", with: (file as NSString).lastPathComponent)
        let global = try (signature + Array(trusted.utf8)).withUnsafeBytes { try pair.sign($0) }
        let line = Data(Array("Ed".utf8) + pair.keyNumber + signature).base64EncodedString()
        return "untrusted comment: \(options.comment)\n\(line)\ntrusted comment: \(trusted)\n\(Data(global).base64EncodedString())\n"
    }
}

/// Verifies signify signatures (used to check what was written, and by tests).
public struct SignifyVerifier: Sendable {
    private let streams: any FileStreams

    /// A verifier reading through `streams`.
    public init(streams: any FileStreams) {
        self.streams = streams
    }

    /// Checks `signature` (a `.sig` file's text, read from `signaturePath`) against `file`.
    /// - Throws: `PublishError.malformedSignature` or `.signatureMismatch`.
    public func verify(file: String, signatureText: String, signaturePath: String, publicKey: SignifyPublicKey) throws {
        let signature = try SignifySignature(text: signatureText, path: signaturePath)
        let valid = try streams.openForReading(file).withMappedBytes { signature.isValid(for: $0, publicKey: publicKey) }
        guard valid else { throw PublishError.signatureMismatch(file: file, signature: signaturePath) }
    }
}
