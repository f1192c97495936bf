/// Reads XML and binary (`bplist00`) property lists within a budget (`PropertyListLimits`),
/// with every size, offset and reference of a binary plist checked against the file.
///
/// Foundation's `PropertyListSerialization` is not used for files from a checkout or an archive:
/// it expands a binary plist's shared references eagerly and cannot be bounded, so a 297-byte
/// Info.plist could make it allocate gigabytes.
public struct PropertyListReader: Sendable {
    /// The budget every read is held to.
    public var limits: PropertyListLimits

    /// A reader with `limits` (by default `.standard`).
    public init(limits: PropertyListLimits = .standard) {
        self.limits = limits
    }

    /// Reads `bytes`; `file` names them in errors.
    /// - Throws: `PropertyListError.overBudget` when the input or its expansion exceeds the
    ///   limits, `.malformed` when it is neither a valid XML nor a valid binary property list.
    public func read(_ bytes: [UInt8], file: String) throws -> PropertyListValue {
        guard bytes.count <= limits.maxInputBytes else {
            throw PropertyListError.overBudget(file: file, limit: .inputBytes(size: bytes.count, limit: limits.maxInputBytes))
        }
        if bytes.starts(with: Array("bplist".utf8)) {
            var parser = BinaryPropertyListParser(bytes: bytes, file: file, limits: limits)
            return try parser.parse()
        }
        var parser = XMLPropertyListParser(bytes: bytes, file: file, limits: limits)
        return try parser.parse()
    }

    /// Reads `bytes` and requires a dictionary at the root.
    /// - Throws: as `read(_:file:)`, and `.malformed` when the root is not a dictionary.
    public func readDictionary(_ bytes: [UInt8], file: String) throws -> [String: PropertyListValue] {
        guard let dictionary = try read(bytes, file: file).dictionary else {
            throw PropertyListError.malformed(file: file, reason: "its root is not a dictionary")
        }
        return dictionary
    }
}

/// Running totals of what a read has expanded, checked against the limits on every addition.
struct PropertyListBudget {
    let limits: PropertyListLimits
    let file: String

    /// Adds `objects` and `bytes` to `total`, throwing as soon as a limit is passed.
    func add(objects: Int, bytes: Int, to total: inout (objects: Int, bytes: Int)) throws {
        let (newObjects, objectsOverflow) = total.objects.addingReportingOverflow(objects)
        guard !objectsOverflow, newObjects <= limits.maxObjects else {
            throw PropertyListError.overBudget(file: file, limit: .objects(limit: limits.maxObjects))
        }
        let (newBytes, bytesOverflow) = total.bytes.addingReportingOverflow(bytes)
        guard !bytesOverflow, newBytes <= limits.maxExpandedBytes else {
            throw PropertyListError.overBudget(file: file, limit: .expandedBytes(limit: limits.maxExpandedBytes))
        }
        total = (newObjects, newBytes)
    }

    /// Throws when `levels` of nesting exceed the limit.
    func check(depth levels: Int) throws {
        guard levels <= limits.maxDepth else {
            throw PropertyListError.overBudget(file: file, limit: .depth(limit: limits.maxDepth))
        }
    }

    func malformed(_ reason: String) -> PropertyListError {
        .malformed(file: file, reason: reason)
    }
}
