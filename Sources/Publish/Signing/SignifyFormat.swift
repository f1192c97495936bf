import Crypto
import Foundation

/// Where a key came from, for messages: a file, or text given directly (a secret holding the
/// whole key file).
public enum KeySource: Sendable, Hashable, CustomStringConvertible {
    /// A key file, by the path the user gave.
    case file(String)
    /// Key text given in an option.
    case inline(option: String)

    /// `'key.sec'`, or `the key given in option 'key'`.
    public var description: String {
        switch self {
        case .file(let path): return "'\(path)'"
        case .inline(let option): return "the key given in option '\(option)'"
        }
    }
}

/// The text envelope of every signify file: `untrusted comment: <text>\n<base64>\n`.
enum SignifyEnvelope {
    static let commentPrefix = "untrusted comment: "

    /// The comment and the decoded bytes of `text`, which must be `length` bytes long and start
    /// with the algorithm `Ed`; `problem` receives a description of what is wrong.
    static func decode(_ text: String, length: Int) -> Result<(comment: String, bytes: [UInt8]), EnvelopeProblem> {
        var lines = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        guard let first = lines.first, first.hasPrefix(commentPrefix) else {
            return .failure(.init("it does not start with 'untrusted comment: '"))
        }
        guard first.count <= commentPrefix.count + 1024 else { return .failure(.init("its comment is longer than 1024 characters")) }
        lines.removeFirst()
        guard let encoded = lines.first, !encoded.isEmpty else { return .failure(.init("the line after the comment is missing")) }
        let line = encoded.hasSuffix("\r") ? encoded.dropLast() : encoded
        guard let data = Data(base64Encoded: String(line)) else {
            return .failure(.init("its second line is not valid base64"))
        }
        let bytes = [UInt8](data)
        guard bytes.count == length else {
            return .failure(.init("it holds \(bytes.count) bytes where \(length) were expected"))
        }
        guard bytes.starts(with: Array("Ed".utf8)) else {
            return .failure(.init("its algorithm is '\(String(decoding: bytes.prefix(2), as: UTF8.self))', not 'Ed' (Ed25519)"))
        }
        return .success((String(first.dropFirst(commentPrefix.count)), bytes))
    }

    /// The envelope around `bytes`.
    static func encode(comment: String, bytes: [UInt8]) -> String {
        "\(commentPrefix)\(comment)\n\(Data(bytes).base64EncodedString())\n"
    }

    /// What is wrong with an envelope.
    struct EnvelopeProblem: Error {
        var text: String
        init(_ text: String) { self.text = text }
    }
}

/// A signify public key: `Ed`, an 8-byte key number, the 32-byte Ed25519 public key.
public struct SignifyPublicKey: Sendable, Hashable {
    /// The key number that ties keys and signatures together.
    public var keyNumber: [UInt8]
    /// The Ed25519 public key.
    public var key: [UInt8]
    /// The untrusted comment.
    public var comment: String

    /// Creates a key.
    public init(keyNumber: [UInt8], key: [UInt8], comment: String) {
        self.keyNumber = keyNumber
        self.key = key
        self.comment = comment
    }

    /// Parses a public key file's text.
    /// - Throws: `PublishError.malformedKey` naming `source` and the problem.
    public init(text: String, source: KeySource) throws {
        switch SignifyEnvelope.decode(text, length: 42) {
        case .failure(let problem): throw PublishError.malformedKey(source: source, problem: problem.text)
        case .success(let (comment, bytes)):
            self.init(keyNumber: Array(bytes[2..<10]), key: Array(bytes[10..<42]), comment: comment)
        }
    }

    /// The file's text.
    public var text: String {
        SignifyEnvelope.encode(comment: comment, bytes: Array("Ed".utf8) + keyNumber + key)
    }

    /// The base64 line alone (what `minisign -P` takes).
    public var base64: String { Data(Array("Ed".utf8) + keyNumber + key).base64EncodedString() }
}

/// A signify signature: `Ed`, the signer's key number, the 64-byte Ed25519 signature.
public struct SignifySignature: Sendable, Hashable {
    /// The key number of the key that signed.
    public var keyNumber: [UInt8]
    /// The Ed25519 signature of the file's bytes.
    public var signature: [UInt8]
    /// The untrusted comment (signify writes "verify with KEY.pub").
    public var comment: String

    /// Creates a signature.
    public init(keyNumber: [UInt8], signature: [UInt8], comment: String) {
        self.keyNumber = keyNumber
        self.signature = signature
        self.comment = comment
    }

    /// Parses a `.sig` file's text.
    /// - Throws: `PublishError.malformedSignature` naming `path`.
    public init(text: String, path: String) throws {
        switch SignifyEnvelope.decode(text, length: 74) {
        case .failure(let problem): throw PublishError.malformedSignature(path: path, problem: problem.text)
        case .success(let (comment, bytes)):
            self.init(keyNumber: Array(bytes[2..<10]), signature: Array(bytes[10..<74]), comment: comment)
        }
    }

    /// The `.sig` file's text.
    public var text: String {
        SignifyEnvelope.encode(comment: comment, bytes: Array("Ed".utf8) + keyNumber + signature)
    }

    /// True when this signature is `publicKey`'s signature of `message`.
    public func isValid(for message: UnsafeRawBufferPointer, publicKey: SignifyPublicKey) -> Bool {
        guard keyNumber == publicKey.keyNumber,
              let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey.key)
        else { return false }
        return key.isValidSignature(signature, for: message)
    }
}
