import CLibgit2

/// A git object id (a commit, tag, tree or blob hash): the 20 bytes of a SHA-1 id, kept inline
/// (no allocation), so a history walk can copy out tens of thousands of ids and their parents
/// cheaply. `hex` formats the text on demand.
public struct GitOID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    // The id's bytes in big-endian words: comparing the words compares the bytes, and so the
    // hexadecimal text.
    private let first: UInt64
    private let second: UInt64
    private let third: UInt32

    /// The number of bytes in a SHA-1 id (libgit2's GIT_OID_RAWSZ).
    static let byteCount = 20

    /// Validates `hex` (40 hexadecimal digits, any case) and returns nil when it is not an id.
    public init?(hex: String) {
        var text = hex
        guard text.utf8.count == 2 * Self.byteCount,
              let oid = text.withUTF8({ GitOID(hexDigitsIn: UnsafeRawBufferPointer($0), at: 0) }) else { return nil }
        self = oid
    }

    /// An id from its 20 raw bytes (`bytes.count` must be 20).
    init<Bytes: Collection>(bytes: Bytes) where Bytes.Element == UInt8 {
        precondition(bytes.count == Self.byteCount, "a SHA-1 id has 20 bytes")
        var words: (UInt64, UInt64, UInt32) = (0, 0, 0)
        for (index, byte) in bytes.enumerated() {
            switch index {
            case 0..<8: words.0 = words.0 << 8 | UInt64(byte)
            case 8..<16: words.1 = words.1 << 8 | UInt64(byte)
            default: words.2 = words.2 << 8 | UInt32(byte)
            }
        }
        (first, second, third) = words
    }

    /// An id from 40 hexadecimal digits at `start` in `buffer` (as in a raw commit's
    /// `parent` line); nil when they are not all there or not all digits. (A history walk
    /// reads one or two per commit, so this works word by word, without branches per digit.)
    init?(hexDigitsIn buffer: UnsafeRawBufferPointer, at start: Int) {
        guard start >= 0, start + 2 * Self.byteCount <= buffer.count else { return nil }
        var valid = true
        func word(_ from: Int, _ count: Int) -> UInt64 {
            var value: UInt64 = 0
            for index in from..<(from + count) {
                let character = buffer[start + index]
                let digit = character &- UInt8(ascii: "0")
                let letter = (character | 0x20) &- UInt8(ascii: "a")
                valid = valid && (digit < 10 || letter < 6)
                value = value << 4 | UInt64(digit < 10 ? digit : letter &+ 10)
            }
            return value
        }
        first = word(0, 16)
        second = word(16, 16)
        third = UInt32(truncatingIfNeeded: word(32, 8))
        guard valid else { return nil }
    }

    /// Copies an id out of libgit2.
    init(_ oid: git_oid) {
        var oid = oid
        self.init(pointer: &oid)
    }

    /// Copies an id out of libgit2 through a pointer it handed out.
    init(pointer: UnsafePointer<git_oid>) {
        self = withUnsafeBytes(of: pointer.pointee.id) { GitOID(bytes: $0.prefix(Self.byteCount)) }
    }

    private func byte(at index: Int) -> UInt8 {
        switch index {
        case 0..<8: UInt8(truncatingIfNeeded: first >> (56 - 8 * index))
        case 8..<16: UInt8(truncatingIfNeeded: second >> (56 - 8 * (index - 8)))
        default: UInt8(truncatingIfNeeded: third >> (24 - 8 * (index - 16)))
        }
    }

    /// The full lowercase hexadecimal id, 40 characters.
    public var hex: String { hexPrefix(2 * Self.byteCount) }

    /// The first `count` hexadecimal digits, formatted straight into the string's storage.
    private func hexPrefix(_ count: Int) -> String {
        String(unsafeUninitializedCapacity: count) { buffer in
            let digits: StaticString = "0123456789abcdef"
            for index in 0..<count {
                let byte = byte(at: index / 2)
                let value = index % 2 == 0 ? byte >> 4 : byte & 0x0F
                buffer[index] = digits.utf8Start[Int(value)]
            }
            return count
        }
    }

    /// The id as libgit2's struct, for calls into C.
    var raw: git_oid {
        var oid = git_oid()
        withUnsafeMutableBytes(of: &oid.id) { target in
            for index in 0..<Self.byteCount { target[index] = byte(at: index) }
        }
        return oid
    }

    /// The first seven characters, as `git log --oneline` shows them.
    public var short: String { hexPrefix(7) }

    /// The full hexadecimal id.
    public var description: String { hex }

    /// Orders ids by their bytes, which is the order of their hexadecimal text.
    public static func < (lhs: GitOID, rhs: GitOID) -> Bool {
        (lhs.first, lhs.second, lhs.third) < (rhs.first, rhs.second, rhs.third)
    }

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
