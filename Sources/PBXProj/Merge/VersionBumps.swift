/// How a merge treats a version number that both sides raised from the base to different values
/// (two branches that each bumped `CURRENT_PROJECT_VERSION`, or each moved a Swift package's
/// requirement up): the most common conflict in real app histories.
public enum PBXProjVersionBumps: String, Sendable, CaseIterable {
    /// Keep the higher of the two values and say so in a note (the default). Only when all three
    /// values read as version numbers, both sides are strictly above the base and one side is
    /// strictly above the other; anything else stays a conflict.
    case higher
    /// Leave it a conflict, like any other entry both sides changed.
    case conflict
}

/// A version number both sides raised, and the value the merge kept.
public struct PBXProjVersionChoice: Hashable, Sendable, CustomStringConvertible {
    /// The object holding the entry.
    public var objectID: ObjectID
    /// The object's comment (its display name or isa).
    public var comment: String?
    /// The keys leading to the entry (`["buildSettings", "MARKETING_VERSION"]`).
    public var keyPath: [String]
    /// The three values and the one kept.
    public var base: String, ours: String, theirs: String, kept: String

    /// `0F... /* Release */ buildSettings.CURRENT_PROJECT_VERSION: both sides raised "41" (ours "42",
    /// theirs "43"); kept the higher, "43"`.
    public var description: String {
        let subject = "\(objectID)" + (comment.map { " /* \($0) */" } ?? "")
        return "\(subject) \(keyPath.joined(separator: ".")): both sides raised \"\(base)\" (ours \"\(ours)\", theirs \"\(theirs)\"); "
            + "kept the higher, \"\(kept)\" (--versions conflict leaves it a conflict)"
    }
}

/// Which entries hold a version number, and how two version numbers compare.
enum VersionNumbers {
    /// Build settings that hold the product's own version: Xcode's `MARKETING_VERSION`,
    /// `CURRENT_PROJECT_VERSION` and `DYLIB_CURRENT_VERSION`, and a project's own settings whose
    /// name ends in `VERSION` (`APP_VERSION`, `APP_SHORT_VERSION`). Xcode's other `…VERSION`
    /// settings choose a toolchain or promise a binary interface, so raising them is a decision
    /// and stays a conflict.
    static func isVersionSetting(_ key: String) -> Bool {
        guard key.hasSuffix("VERSION") else { return false }
        return !toolchainSettings.contains(key)
    }

    /// Xcode's build settings ending in `VERSION` that are no product version.
    static let toolchainSettings: Set<String> = [
        "SWIFT_VERSION", "GCC_VERSION", "DYLIB_COMPATIBILITY_VERSION", "SDK_VERSION", "XCODE_VERSION_ACTUAL",
        "XCODE_VERSION_MAJOR", "XCODE_VERSION_MINOR", "XCODE_PRODUCT_BUILD_VERSION", "PLATFORM_PRODUCT_BUILD_VERSION",
        "MODULE_VERSION", "CLANG_CXX_LANGUAGE_VERSION", "OBJC_ABI_VERSION", "LLVM_TARGET_TRIPLE_OS_VERSION",
        "SWIFT_LANGUAGE_VERSION", "KASAN_VERSION",
    ]

    /// Keys of an `XCRemoteSwiftPackageReference`'s `requirement` that hold a version.
    static let requirementKeys: Set<String> = ["version", "minimumVersion", "maximumVersion"]

    /// The higher of `ours` and `theirs` when both are strictly above `base` and one is strictly
    /// above the other; nil otherwise (a value that is no version number, a side that lowered
    /// or kept it, two sides equal as numbers but written differently).
    static func higherOfBothRaised(base: String, ours: String, theirs: String) -> String? {
        guard let b = Parsed(base), let o = Parsed(ours), let t = Parsed(theirs) else { return nil }
        guard b < o, b < t else { return nil }
        if o < t { return theirs }
        if t < o { return ours }
        return nil
    }

    /// A version number: dot-separated decimal numbers (one to six of them), optionally followed
    /// by `-` and SemVer pre-release identifiers, which rank below the same numbers without them
    /// (SemVer 2.0.0 §11). Missing trailing numbers count as 0, so `1.2` and `1.2.0` are equal.
    struct Parsed: Comparable {
        let numbers: [Int]
        let prerelease: [Substring]

        init?(_ text: String) {
            let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            let numberFields = parts[0].split(separator: ".", omittingEmptySubsequences: false)
            guard (1...6).contains(numberFields.count) else { return nil }
            var numbers: [Int] = []
            for field in numberFields {
                guard (1...9).contains(field.count), field.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let number = Int(field) else {
                    return nil
                }
                numbers.append(number)
            }
            var prerelease: [Substring] = []
            if parts.count == 2 {
                prerelease = parts[1].split(separator: ".", omittingEmptySubsequences: false)
                let allowed = { (byte: UInt8) in
                    (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D
                }
                guard prerelease.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy(allowed) }) else { return nil }
            }
            while numbers.count > 1, numbers.last == 0 { numbers.removeLast() }
            self.numbers = numbers
            self.prerelease = prerelease
        }

        static func < (a: Parsed, b: Parsed) -> Bool {
            for index in 0..<max(a.numbers.count, b.numbers.count) {
                let x = index < a.numbers.count ? a.numbers[index] : 0
                let y = index < b.numbers.count ? b.numbers[index] : 0
                if x != y { return x < y }
            }
            // Equal numbers: a pre-release ranks below the release.
            if a.prerelease.isEmpty || b.prerelease.isEmpty { return !a.prerelease.isEmpty && b.prerelease.isEmpty }
            for (x, y) in zip(a.prerelease, b.prerelease) where x != y {
                switch (Int(x), Int(y)) {
                case let (m?, n?): return m < n
                case (_?, nil): return true
                case (nil, _?): return false
                case (nil, nil): return x < y
                }
            }
            return a.prerelease.count < b.prerelease.count
        }

        static func == (a: Parsed, b: Parsed) -> Bool { !(a < b) && !(b < a) }
    }
}
