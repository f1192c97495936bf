/// What reading one property list may cost: the bounds that make a small hostile file (a binary
/// plist whose arrays share references to each other, 8 references on 12 levels = 8^12 objects)
/// an error instead of gigabytes of memory.
///
/// A shared reference in a binary plist counts every time it is used, as if the file had been
/// written out without sharing: that is what a caller walking the value pays.
public struct PropertyListLimits: Sendable, Hashable {
    /// The largest file, in bytes.
    public var maxInputBytes: Int
    /// The most values (strings, numbers, containers, dictionary keys...) once expanded.
    public var maxObjects: Int
    /// The deepest nesting of arrays and dictionaries.
    public var maxDepth: Int
    /// The most bytes of strings (UTF-8) and data, added up once expanded.
    public var maxExpandedBytes: Int

    /// The limits of every property list Slipway reads: 32 MiB of input, 1,000,000 objects,
    /// 512 levels, 64 MiB of strings and data. Real Info.plists, export options and provisioning
    /// profiles stay orders of magnitude below.
    public static let standard = PropertyListLimits(maxInputBytes: 32 << 20, maxObjects: 1_000_000, maxDepth: 512,
                                                    maxExpandedBytes: 64 << 20)

    /// Limits with the given values.
    public init(maxInputBytes: Int, maxObjects: Int, maxDepth: Int, maxExpandedBytes: Int) {
        self.maxInputBytes = maxInputBytes
        self.maxObjects = maxObjects
        self.maxDepth = maxDepth
        self.maxExpandedBytes = maxExpandedBytes
    }
}
