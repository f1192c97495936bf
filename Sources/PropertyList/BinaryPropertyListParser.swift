import Foundation

/// A `bplist00` reader: trailer, offset table and object references all checked against the
/// file, cycles refused, and every value's expanded size computed once and charged every time a
/// reference uses it (so a DAG of shared arrays is refused in time linear in the file's size).
///
/// Iterative (an explicit stack), so 512 levels need no deep call stack on a small thread.
struct BinaryPropertyListParser {
    private let bytes: [UInt8]
    private let budget: PropertyListBudget
    private var offsetIntSize = 0
    private var referenceSize = 0
    private var objectCount = 0
    private var offsetTableStart = 0
    /// The end of the object area: the offset table's start.
    private var objectsEnd = 0
    /// Values already read, with their expanded size, by object index.
    private var done: [Int: Sized] = [:]
    /// Containers being read, by object index: a reference to one of them is a cycle.
    private var open: Set<Int> = []

    /// A value and what it costs once expanded: values, bytes of strings and data, levels.
    struct Sized {
        var value: PropertyListValue
        var objects: Int
        var bytes: Int
        var levels: Int
    }

    /// An array, set or dictionary whose elements are being read.
    private struct Frame {
        var index: Int
        var isDictionary: Bool
        /// Element references; a dictionary's keys first, then its values.
        var references: [Int]
        var elements: [PropertyListValue] = []
        var total: (objects: Int, bytes: Int) = (1, 0)
        var levels = 1
    }

    init(bytes: [UInt8], file: String, limits: PropertyListLimits) {
        self.bytes = bytes
        self.budget = PropertyListBudget(limits: limits, file: file)
    }

    mutating func parse() throws -> PropertyListValue {
        guard bytes.starts(with: Array("bplist00".utf8)) else {
            throw budget.malformed("it is a binary property list of an unsupported version (only bplist00 is read)")
        }
        let trailerSize = 32
        guard bytes.count >= 8 + 1 + trailerSize else { throw budget.malformed("the binary property list is cut short") }
        let trailer = bytes.count - trailerSize
        offsetIntSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetIntSize), (1...8).contains(referenceSize) else {
            throw budget.malformed("its trailer gives an offset size of \(offsetIntSize) and a reference size of \(referenceSize) (1 to 8 allowed)")
        }
        let count = try unsigned(at: trailer + 8, width: 8)
        let top = try unsigned(at: trailer + 16, width: 8)
        let tableOffset = try unsigned(at: trailer + 24, width: 8)
        // Every object takes at least one byte between the header and the offset table.
        guard let tableStart = Int(exactly: tableOffset), tableStart >= 9, tableStart <= trailer,
              let objects = Int(exactly: count), objects >= 1, objects <= tableStart - 8 else {
            throw budget.malformed("its trailer's object count or offset table lies outside the file")
        }
        let (tableLength, overflow) = objects.multipliedReportingOverflow(by: offsetIntSize)
        guard !overflow, tableLength <= trailer - tableStart else {
            throw budget.malformed("its offset table runs past the trailer")
        }
        guard let root = Int(exactly: top), root < objects else {
            throw budget.malformed("its top object \(top) is not one of its \(objects) objects")
        }
        objectCount = objects
        offsetTableStart = tableStart
        objectsEnd = tableStart
        return try value(of: root)
    }

    /// Reads object `root` and everything it references.
    private mutating func value(of root: Int) throws -> PropertyListValue {
        var stack: [Frame] = []
        var result = try start(root, stack: &stack)
        while let top = stack.indices.last {
            if stack[top].elements.count < stack[top].references.count {
                let child = stack[top].references[stack[top].elements.count]
                if let sized = try start(child, stack: &stack) { try append(sized, to: &stack) }
                continue
            }
            guard let frame = stack.popLast() else { break }
            open.remove(frame.index)
            let sized = try finish(frame)
            done[frame.index] = sized
            if stack.isEmpty { result = sized } else { try append(sized, to: &stack) }
        }
        guard let result else { throw budget.malformed("its top object could not be read") }
        var total = (objects: 0, bytes: 0)
        try budget.add(objects: result.objects, bytes: result.bytes, to: &total)
        return result.value
    }

    /// A scalar or an already-read value; nil after pushing a new container's frame.
    private mutating func start(_ index: Int, stack: inout [Frame]) throws -> Sized? {
        if let sized = done[index] { return sized }
        guard !open.contains(index) else { throw budget.malformed("object \(index) contains itself (a reference cycle)") }
        let offset = try objectOffset(index)
        let marker = bytes[offset]
        switch marker >> 4 {
        case 0xA, 0xC, 0xD:
            let isDictionary = marker >> 4 == 0xD
            let (count, start) = try length(marker, at: offset)
            let (perEntry, overflow1) = referenceSize.multipliedReportingOverflow(by: isDictionary ? 2 : 1)
            let (size, overflow2) = count.multipliedReportingOverflow(by: perEntry)
            guard !overflow1, !overflow2, size <= objectsEnd - start else {
                throw budget.malformed("object \(index) claims \(count) elements, more than the file holds")
            }
            try budget.check(depth: stack.count + 1)
            var references: [Int] = []
            references.reserveCapacity(isDictionary ? count * 2 : count)
            for element in 0..<(isDictionary ? count * 2 : count) {
                let reference = try unsigned(at: start + element * referenceSize, width: referenceSize)
                guard let target = Int(exactly: reference), target < objectCount else {
                    throw budget.malformed("object \(index) refers to object \(reference), but there are only \(objectCount)")
                }
                references.append(target)
            }
            open.insert(index)
            stack.append(Frame(index: index, isDictionary: isDictionary, references: references))
            return nil
        default:
            let sized = try scalar(marker, at: offset, index: index)
            done[index] = sized
            return sized
        }
    }

    /// Adds a finished element to the innermost open container, charging its expanded size.
    private func append(_ sized: Sized, to stack: inout [Frame]) throws {
        guard let top = stack.indices.last else { return }
        // Fields read one by one: a copy of the frame would share `elements` and make the append copy it.
        if stack[top].isDictionary, stack[top].elements.count < stack[top].references.count / 2, sized.value.string == nil {
            throw budget.malformed("a dictionary (object \(stack[top].index)) has a key that is not a string")
        }
        try budget.check(depth: stack.count + sized.levels)
        try budget.add(objects: sized.objects, bytes: sized.bytes, to: &stack[top].total)
        stack[top].levels = max(stack[top].levels, sized.levels + 1)
        stack[top].elements.append(sized.value)
    }

    private func finish(_ frame: Frame) throws -> Sized {
        let value: PropertyListValue
        if frame.isDictionary {
            let half = frame.elements.count / 2
            var dictionary: [String: PropertyListValue] = [:]
            dictionary.reserveCapacity(half)
            for position in 0..<half {
                guard let key = frame.elements[position].string else { throw budget.malformed("a dictionary key is not a string") }
                dictionary[key] = frame.elements[half + position]
            }
            value = .dictionary(dictionary)
        } else {
            value = .array(frame.elements)
        }
        return Sized(value: value, objects: frame.total.objects, bytes: frame.total.bytes, levels: frame.levels)
    }

    private func scalar(_ marker: UInt8, at offset: Int, index: Int) throws -> Sized {
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return Sized(value: .bool(false), objects: 1, bytes: 0, levels: 0)
            case 0x09: return Sized(value: .bool(true), objects: 1, bytes: 0, levels: 0)
            default: throw budget.malformed("object \(index) has the unsupported marker \(marker)")
            }
        case 0x1:
            return Sized(value: .integer(try integer(width: low, at: offset + 1, index: index)), objects: 1, bytes: 0, levels: 0)
        case 0x2:
            guard low == 2 || low == 3 else { throw budget.malformed("object \(index) is a real of an unsupported size") }
            let raw = try unsigned(at: offset + 1, width: 1 << low)
            let real = low == 2 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: raw))) : Double(bitPattern: raw)
            return Sized(value: .real(real), objects: 1, bytes: 0, levels: 0)
        case 0x3:
            guard marker == 0x33 else { throw budget.malformed("object \(index) is a date of an unsupported size") }
            let seconds = Double(bitPattern: try unsigned(at: offset + 1, width: 8))
            // Years 1 to 9999: Foundation traps formatting dates far outside them (or NaN).
            guard seconds.isFinite, seconds >= -63_113_904_000, seconds < 252_423_993_600 else {
                throw budget.malformed("object \(index) is a date outside the years 1 to 9999")
            }
            return Sized(value: .date(Date(timeIntervalSinceReferenceDate: seconds)), objects: 1, bytes: 0, levels: 0)
        case 0x4:
            let (count, start) = try length(marker, at: offset)
            guard count <= objectsEnd - start else { throw budget.malformed("object \(index) claims \(count) bytes of data, more than the file holds") }
            return Sized(value: .data(Array(bytes[start..<(start + count)])), objects: 1, bytes: count, levels: 0)
        case 0x5:
            let (count, start) = try length(marker, at: offset)
            guard count <= objectsEnd - start else { throw budget.malformed("object \(index) claims a string of \(count) bytes, more than the file holds") }
            let slice = bytes[start..<(start + count)]
            // ASCII by the format; bytes above 127 are read as Latin-1, never dropped.
            let text = slice.allSatisfy { $0 < 0x80 } ? String(decoding: slice, as: UTF8.self)
                : String(String.UnicodeScalarView(slice.map { Unicode.Scalar($0) }))
            return Sized(value: .string(text), objects: 1, bytes: text.utf8.count, levels: 0)
        case 0x6:
            let (count, start) = try length(marker, at: offset)
            let (size, overflow) = count.multipliedReportingOverflow(by: 2)
            guard !overflow, size <= objectsEnd - start else {
                throw budget.malformed("object \(index) claims a string of \(count) UTF-16 units, more than the file holds")
            }
            let units = (0..<count).map { UInt16(bytes[start + 2 * $0]) << 8 | UInt16(bytes[start + 2 * $0 + 1]) }
            let text = String(decoding: units, as: UTF16.self)
            return Sized(value: .string(text), objects: 1, bytes: text.utf8.count, levels: 0)
        case 0x8:
            return Sized(value: .uid(try unsigned(at: offset + 1, width: low + 1)), objects: 1, bytes: 0, levels: 0)
        default:
            throw budget.malformed("object \(index) has the unsupported marker \(marker)")
        }
    }

    /// An integer object's value: 1, 2 and 4 bytes unsigned, 8 bytes signed, 16 bytes when it fits Int64.
    private func integer(width exponent: Int, at start: Int, index: Int) throws -> Int64 {
        switch exponent {
        case 0, 1, 2: return Int64(try unsigned(at: start, width: 1 << exponent))
        case 3: return Int64(bitPattern: try unsigned(at: start, width: 8))
        case 4:
            let high = try unsigned(at: start, width: 8), low = Int64(bitPattern: try unsigned(at: start + 8, width: 8))
            guard (high == 0 && low >= 0) || (high == UInt64.max && low < 0) else {
                throw budget.malformed("object \(index) is an integer outside the 64-bit range")
            }
            return low
        default:
            throw budget.malformed("object \(index) is an integer of an unsupported size")
        }
    }

    /// The element count of a data, string or container marker, and where its contents start.
    private func length(_ marker: UInt8, at offset: Int) throws -> (count: Int, start: Int) {
        let low = Int(marker & 0x0F)
        if low != 0x0F { return (low, offset + 1) }
        guard offset + 1 < objectsEnd else { throw budget.malformed("an object's length runs past its end") }
        let lengthMarker = bytes[offset + 1]
        let exponent = Int(lengthMarker & 0x0F)
        guard lengthMarker >> 4 == 0x1, exponent <= 3 else { throw budget.malformed("an object's length is not an integer") }
        let value = try unsigned(at: offset + 2, width: 1 << exponent)
        guard let count = Int(exactly: value) else { throw budget.malformed("an object claims \(value) elements") }
        return (count, offset + 2 + (1 << exponent))
    }

    /// Where object `index` starts, from the offset table.
    private func objectOffset(_ index: Int) throws -> Int {
        let value = try unsigned(at: offsetTableStart + index * offsetIntSize, width: offsetIntSize)
        guard let offset = Int(exactly: value), offset >= 8, offset < objectsEnd else {
            throw budget.malformed("object \(index) lies at offset \(value), outside the object area")
        }
        return offset
    }

    /// A big-endian unsigned integer of `width` (1 to 8) bytes at `start`, inside the file.
    private func unsigned(at start: Int, width: Int) throws -> UInt64 {
        guard start >= 0, width >= 1, width <= 8, start <= bytes.count - width else {
            throw budget.malformed("the binary property list is cut short")
        }
        var value: UInt64 = 0
        for position in start..<(start + width) { value = value << 8 | UInt64(bytes[position]) }
        return value
    }
}
