import CLibgit2

/// A git object id (a commit, tag, tree or blob hash), kept as its lowercase hexadecimal text.
public struct GitOID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The full lowercase hexadecimal id, 40 characters for SHA-1 repositories.
    public let hex: String

    /// Validates `hex` (40 hexadecimal digits, any case) and returns nil when it is not an id.
    public init?(hex: String) {
        let bytes = Array(hex.utf8)
        guard bytes.count == 40, bytes.allSatisfy(\.isHexDigit) else { return nil }
        self.hex = hex.lowercased()
    }

    /// Copies an id out of libgit2.
    init(_ oid: git_oid) {
        var oid = oid
        self.init(pointer: &oid)
    }

    /// Copies an id out of libgit2 through a pointer it handed out.
    init(pointer: UnsafePointer<git_oid>) {
        // Formatted straight into the string's storage: one allocation per id, which counts
        // when a history walk copies out tens of thousands of them.
        hex = String(unsafeUninitializedCapacity: Self.hexLength) { buffer in
            buffer.withMemoryRebound(to: CChar.self) { _ = git_oid_fmt($0.baseAddress, pointer) }
            return Self.hexLength
        }
    }

    /// The length of a SHA-1 id in hexadecimal (libgit2's GIT_OID_HEXSZ).
    private static let hexLength = 40

    /// The id as libgit2's struct, for calls into C.
    var raw: git_oid {
        var oid = git_oid()
        _ = git_oid_fromstrn(&oid, hex, hex.utf8.count)
        return oid
    }

    /// The first seven characters, as `git log --oneline` shows them.
    public var short: String { String(hex.prefix(7)) }

    /// The full hexadecimal id.
    public var description: String { hex }

    /// Orders ids by their text, to make listings deterministic.
    public static func < (lhs: GitOID, rhs: GitOID) -> Bool { lhs.hex < rhs.hex }

    /// Decodes the hexadecimal text, refusing anything that is not an id.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let oid = GitOID(hex: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not a 40-character git object id")
        }
        self = oid
    }

    /// Encodes the id as its hexadecimal text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (48...57).contains(self) || (65...70).contains(self) || (97...102).contains(self)
    }
}
