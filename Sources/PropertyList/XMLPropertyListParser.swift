import Foundation

/// An XML property list reader over bytes: the `plist` element (or a bare value), `dict`, `key`,
/// `array`, `string`, `integer`, `real`, `true`, `false`, `date` and `data`, with the five named
/// entities, character references, CDATA sections and comments.
///
/// A DOCTYPE with an internal subset (where entities would be defined, and entity bombs live) is
/// refused. Iterative, so nesting costs no call stack.
struct XMLPropertyListParser {
    let bytes: [UInt8]
    let budget: PropertyListBudget
    var position = 0
    private var total: (objects: Int, bytes: Int) = (0, 0)

    /// An array or dictionary whose elements are being read. Mutated in place on the stack, so
    /// that appending never copies the elements read so far (no quadratic time on a long array).
    private struct Container {
        var isArray: Bool
        var array: [PropertyListValue] = []
        var dictionary: [String: PropertyListValue] = [:]
        /// A dictionary's key whose value comes next.
        var key: String?
    }

    init(bytes: [UInt8], file: String, limits: PropertyListLimits) {
        self.bytes = bytes
        self.budget = PropertyListBudget(limits: limits, file: file)
    }

    mutating func parse() throws -> PropertyListValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        try skipProlog()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "<") else {
            throw budget.malformed("it is neither an XML nor a binary property list")
        }
        var tag = try readTag()
        let wrapped = tag.name == "plist" && !tag.isClosing
        if wrapped {
            if tag.isEmpty { throw budget.malformed("its plist element is empty") }
            try skipMisc()
            tag = try readTag()
        }
        let value = try readValue(startingWith: tag)
        try skipMisc()
        if wrapped {
            let end = try readTag()
            guard end.isClosing, end.name == "plist" else { throw budget.malformed("its plist element holds more than one value") }
            try skipMisc()
        }
        guard position == bytes.count else { throw budget.malformed("text follows the property list") }
        return value
    }

    /// Reads the value that `first` opens, and, for a container, everything up to its end tag.
    private mutating func readValue(startingWith first: Tag) throws -> PropertyListValue {
        var stack: [Container] = []
        var tag = first
        while true {
            var finished: PropertyListValue?
            if tag.isClosing {
                guard let container = stack.popLast() else { throw budget.malformed("'</\(tag.name)>' closes nothing") }
                if container.isArray {
                    guard tag.name == "array" else { throw budget.malformed("'</\(tag.name)>' closes an array") }
                    finished = .array(container.array)
                } else {
                    guard tag.name == "dict" else { throw budget.malformed("'</\(tag.name)>' closes a dict") }
                    if let key = container.key { throw budget.malformed("the key '\(key)' has no value") }
                    finished = .dictionary(container.dictionary)
                }
            } else if tag.name == "key" {
                guard let top = stack.indices.last, !stack[top].isArray, stack[top].key == nil else {
                    throw budget.malformed("a key appears outside a dict, or two keys follow each other")
                }
                let key = tag.isEmpty ? "" : try readText(closing: "key")
                try charge(objects: 1, bytes: key.utf8.count)
                stack[top].key = key
            } else if (tag.name == "array" || tag.name == "dict") && !tag.isEmpty {
                try budget.check(depth: stack.count + 1)
                try charge(objects: 1, bytes: 0)
                stack.append(Container(isArray: tag.name == "array"))
            } else {
                let value = try scalar(tag)
                try charge(objects: 1, bytes: Self.byteCount(value))
                finished = value
            }
            if let value = finished {
                guard let top = stack.indices.last else { return value }
                if stack[top].isArray {
                    stack[top].array.append(value)
                } else {
                    guard let key = stack[top].key else { throw budget.malformed("a value in a dict has no key before it") }
                    stack[top].dictionary[key] = value
                    stack[top].key = nil
                }
            }
            try skipMisc()
            tag = try readTag()
        }
    }

    /// A value that is not an open container: an empty array or dict, or a scalar.
    private mutating func scalar(_ tag: Tag) throws -> PropertyListValue {
        switch tag.name {
        case "array": return .array([])
        case "dict": return .dictionary([:])
        case "true", "false":
            if !tag.isEmpty {
                let end = try readTag()
                guard end.isClosing, end.name == tag.name else { throw budget.malformed("'<\(tag.name)>' is not empty") }
            }
            return .bool(tag.name == "true")
        case "string":
            return .string(tag.isEmpty ? "" : try readText(closing: "string"))
        case "integer", "real", "date", "data":
            let text = tag.isEmpty ? "" : try readText(closing: tag.name)
            return try convert(text, as: tag.name)
        default:
            throw budget.malformed("'<\(tag.name)>' is not a property list element")
        }
    }

    private func convert(_ text: String, as name: String) throws -> PropertyListValue {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch name {
        case "integer":
            guard let value = Self.integer(trimmed) else { throw budget.malformed("'\(trimmed)' is not a 64-bit integer") }
            return .integer(value)
        case "real":
            guard let value = Double(trimmed) else { throw budget.malformed("'\(trimmed)' is not a real number") }
            return .real(value)
        case "date":
            guard let date = Self.date(trimmed) else { throw budget.malformed("'\(trimmed)' is not a date (YYYY-MM-DDTHH:MM:SSZ)") }
            return .date(date)
        default:
            let base64 = String(trimmed.unicodeScalars.filter { !" \t\r\n".unicodeScalars.contains($0) })
            guard let data = Data(base64Encoded: base64) else { throw budget.malformed("a data element is not base64") }
            return .data(Array(data))
        }
    }

    private static func byteCount(_ value: PropertyListValue) -> Int {
        switch value {
        case .string(let text): return text.utf8.count
        case .data(let data): return data.count
        default: return 0
        }
    }

    private mutating func charge(objects: Int, bytes: Int) throws {
        try budget.add(objects: objects, bytes: bytes, to: &total)
    }

    // MARK: - Numbers and dates

    /// Decimal with an optional sign, or hexadecimal after `0x`.
    static func integer(_ text: String) -> Int64? {
        var digits = Substring(text)
        var negative = false
        if let sign = digits.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            digits = digits.dropFirst()
        }
        var radix = 10
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            radix = 16
            digits = digits.dropFirst(2)
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isHexDigit }),
              let magnitude = UInt64(digits, radix: radix) else { return nil }
        if negative { return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil }
        return Int64(exactly: magnitude)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, the form Foundation writes (and the only one it reads).
    static func date(_ text: String) -> Date? {
        let scalars = Array(text.utf8)
        guard scalars.count == 20, scalars[4] == UInt8(ascii: "-"), scalars[7] == UInt8(ascii: "-"),
              scalars[10] == UInt8(ascii: "T"), scalars[13] == UInt8(ascii: ":"), scalars[16] == UInt8(ascii: ":"),
              scalars[19] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard (48...57).contains(scalars[index]) else { return nil }
                value = value * 10 + Int(scalars[index] - 48)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        // Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }
}
