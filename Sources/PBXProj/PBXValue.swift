/// The identifier of one object in a project (`A4C5307E2CAAC8EA00EDC73B`, or `OBJ_12` in files
/// from SwiftPM's old generator).
public struct ObjectID: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The identifier's text.
    public let rawValue: String

    /// Wraps an identifier's text.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Wraps an identifier literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The identifier's text.
    public var description: String { rawValue }

    /// Byte order, the order Xcode sorts objects in.
    public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool {
        lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8)
    }
}

/// One value of the property list: every scalar of an OpenStep plist is a string (numbers and
/// booleans included), plus `<hex>` data, arrays and dictionaries.
public enum PBXValue: Hashable, Sendable {
    /// A string, decoded (no quotes, escapes resolved).
    case string(String)
    /// `<hex>` data.
    case data([UInt8])
    /// A list of values.
    case array([PBXValue])
    /// A dictionary whose keys keep their order.
    case dictionary(PBXDictionary)

    /// The string, when this is one.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    public var array: [PBXValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The dictionary, when this is one.
    public var dictionary: PBXDictionary? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    /// The string elements of an array (non-strings skipped), or nil when this is not an array.
    public var strings: [String]? {
        array?.compactMap(\.string)
    }
}

extension PBXValue: ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    /// A string value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array value.
    public init(arrayLiteral elements: PBXValue...) { self = .array(elements) }
    /// A dictionary value, keys in the order written.
    public init(dictionaryLiteral elements: (String, PBXValue)...) {
        self = .dictionary(PBXDictionary(elements.map { PBXDictionary.Entry(key: $0.0, value: $0.1) }))
    }
}

/// A property-list dictionary that keeps its keys in order, so that an object read from a file
/// is written back with its keys where they were.
public struct PBXDictionary: Hashable, Sendable, Sequence {
    /// One key and its value.
    public struct Entry: Hashable, Sendable {
        /// The key.
        public var key: String
        /// The value.
        public var value: PBXValue

        /// Creates an entry.
        public init(key: String, value: PBXValue) {
            self.key = key
            self.value = value
        }
    }

    /// The entries in order.
    public private(set) var entries: [Entry]

    /// Creates a dictionary from entries in the given order.
    public init(_ entries: [Entry] = []) { self.entries = entries }

    /// The number of keys.
    public var count: Int { entries.count }

    /// Whether there are no keys.
    public var isEmpty: Bool { entries.isEmpty }

    /// The keys in order.
    public var keys: [String] { entries.map(\.key) }

    /// Iterates the entries in order.
    public func makeIterator() -> IndexingIterator<[Entry]> { entries.makeIterator() }

    /// The value for `key`. Setting a new key inserts it where Xcode would put it (after `isa`,
    /// in byte order among the others, or at the end when the keys are not sorted); setting nil
    /// removes the key.
    public subscript(key: String) -> PBXValue? {
        get { entries.first { $0.key == key }?.value }
        set {
            if let index = entries.firstIndex(where: { $0.key == key }) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.insert(Entry(key: key, value: newValue), at: insertionIndex(for: key))
            }
        }
    }

    /// Where a new key goes: before the first later key in Xcode's order (`isa` first, then byte
    /// order).
    func insertionIndex(for key: String) -> Int {
        if key == "isa" { return 0 }
        for (index, entry) in entries.enumerated() where entry.key != "isa" {
            if XcodeOrder.keyPrecedes(key, entry.key) { return index }
        }
        return entries.count
    }
}

extension PBXDictionary: ExpressibleByDictionaryLiteral {
    /// A dictionary with keys in the order written.
    public init(dictionaryLiteral elements: (String, PBXValue)...) {
        self.init(elements.map { Entry(key: $0.0, value: $0.1) })
    }
}

/// Xcode's ordering rules.
enum XcodeOrder {
    /// Whether key `a` sorts before `b`: `isa` first, then plain byte order.
    static func keyPrecedes(_ a: String, _ b: String) -> Bool {
        if a == "isa" { return b != "isa" }
        if b == "isa" { return false }
        return a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}

/// One object of the project: its id and its properties (the `isa` among them).
public struct PBXObject: Hashable, Sendable {
    /// The object's id.
    public let id: ObjectID
    /// All keys and values, `isa` included, in file order.
    public var properties: PBXDictionary

    /// Creates an object with `isa` as its first key followed by `properties`.
    public init(id: ObjectID, isa: String, properties: PBXDictionary = PBXDictionary()) {
        self.id = id
        var all = properties
        all["isa"] = nil
        self.properties = PBXDictionary([PBXDictionary.Entry(key: "isa", value: .string(isa))] + all.entries)
    }

    /// Creates an object from properties that already hold an `isa`.
    init(id: ObjectID, properties: PBXDictionary) {
        self.id = id
        self.properties = properties
    }

    /// The object's class name (`PBXGroup`, `PBXFileReference`, ...).
    public var isa: String { properties["isa"]?.string ?? "" }

    /// The value for `key`; setting nil removes the key.
    public subscript(key: String) -> PBXValue? {
        get { properties[key] }
        set { properties[key] = newValue }
    }

    /// The string value for `key`.
    public func string(_ key: String) -> String? { properties[key]?.string }

    /// The object id stored under `key`.
    public func reference(_ key: String) -> ObjectID? { string(key).map { ObjectID($0) } }

    /// The object ids listed under `key` (empty when absent).
    public func references(_ key: String) -> [ObjectID] {
        (properties[key]?.strings ?? []).map { ObjectID($0) }
    }
}

extension SyntaxTree {
    /// Decodes a node and its subtree into a value (recursion is bounded by the parser's depth
    /// limit).
    func value(_ index: Int) -> PBXValue {
        switch nodes[index].kind {
        case .unquoted, .quoted:
            return .string(string(index))
        case .data:
            return .data(dataBytes(index))
        case .array:
            return .array(children(index).map { value($0) })
        case .dictionary:
            return .dictionary(dictionary(index))
        }
    }

    /// Decodes a dictionary node.
    func dictionary(_ index: Int) -> PBXDictionary {
        PBXDictionary(entries(index).map { PBXDictionary.Entry(key: string($0.key), value: value($0.value)) })
    }

    /// The bytes of a `<hex>` data node.
    func dataBytes(_ index: Int) -> [UInt8] {
        var result: [UInt8] = []
        var high: UInt8?
        for byte in rawBytes(index) {
            guard let digit = StringEscapes.hexValue(byte) else { continue }
            if let pending = high {
                result.append(pending << 4 | digit)
                high = nil
            } else {
                high = digit
            }
        }
        return result
    }
}
