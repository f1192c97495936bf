import Foundation
import Basics

/// One `-destination` for xcodebuild: parsed and checked from the string a lane gives, or built
/// from typed parts. `description` is the string to pass.
public struct XcodeDestination: Sendable, Hashable, CustomStringConvertible {
    /// The keys xcodebuild knows in a destination specifier.
    public enum Key: String, Sendable, CaseIterable {
        case platform, name, OS, id, arch, variant
    }

    /// One `key=value` pair, in the order given.
    public struct Pair: Sendable, Hashable {
        public let key: Key
        public let value: String
    }

    /// The platforms xcodebuild accepts in `platform=`.
    public static let platforms = [
        "iOS", "iOS Simulator", "macOS", "tvOS", "tvOS Simulator", "watchOS", "watchOS Simulator",
        "visionOS", "visionOS Simulator", "DriverKit",
    ]

    /// True for the `generic/platform=...` form (any device of the platform; used to archive).
    public let isGeneric: Bool
    /// The pairs in the order given.
    public let pairs: [Pair]

    /// The value of `key`, if given.
    public subscript(key: Key) -> String? { pairs.first { $0.key == key }?.value }

    /// The string for `-destination`.
    public var description: String {
        (isGeneric ? "generic/" : "") + pairs.map { "\($0.key.rawValue)=\($0.value)" }.joined(separator: ",")
    }

    /// Parses and checks a destination string. `option` names the lane option in errors.
    ///
    /// - Throws: `XcodeProjectError.invalidDestination` for an empty string, a pair without `=`,
    ///   an unknown key (with a suggestion), an empty value, a repeated key, an unknown platform,
    ///   a malformed OS version, or a specifier that names neither a platform nor an id.
    public init(parsing text: String, option: String = "destination") throws {
        func fail(_ problem: String) -> XcodeProjectError {
            .invalidDestination(option: option, value: text, problem: problem)
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw fail("is empty") }
        var body = Substring(trimmed)
        isGeneric = body.hasPrefix("generic/")
        if isGeneric { body = body.dropFirst("generic/".count) }
        var pairs: [Pair] = []
        for item in body.split(separator: ",", omittingEmptySubsequences: false) {
            let piece = item.trimmingCharacters(in: .whitespaces)
            guard let equals = piece.firstIndex(of: "=") else {
                throw fail(piece.isEmpty ? "has an empty item (two commas in a row, or a trailing comma)" : "has '\(piece)' without '=' (write key=value)")
            }
            let name = piece[..<equals].trimmingCharacters(in: .whitespaces)
            let value = piece[piece.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard let key = Key.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
                let known = Key.allCases.map(\.rawValue)
                throw fail("has an unknown key '\(name)'.\(Suggestions.didYouMean(name, in: known)) Known keys: \(known.joined(separator: ", "))")
            }
            guard !value.isEmpty else { throw fail("gives '\(key.rawValue)' an empty value") }
            guard !pairs.contains(where: { $0.key == key }) else { throw fail("gives '\(key.rawValue)' twice") }
            pairs.append(Pair(key: key, value: value))
        }
        self.pairs = pairs
        try check(fail)
    }

    private init(generic: Bool, pairs: [Pair]) {
        isGeneric = generic
        self.pairs = pairs
    }

    private func check(_ fail: (String) -> XcodeProjectError) throws {
        if let platform = self[.platform], !Self.platforms.contains(platform) {
            throw fail("names an unknown platform '\(platform)'.\(Suggestions.didYouMean(platform, in: Self.platforms)) "
                + "Known platforms: \(Self.platforms.joined(separator: ", "))")
        }
        if isGeneric {
            guard self[.platform] != nil else { throw fail("uses 'generic/' without 'platform=' (write generic/platform=iOS)") }
            if let extra = pairs.first(where: { $0.key != .platform && $0.key != .variant }) {
                throw fail("uses 'generic/' with '\(extra.key.rawValue)=' (a generic destination takes only platform and variant)")
            }
        } else if self[.platform] == nil && self[.id] == nil {
            throw fail("names neither 'platform=' nor 'id='")
        }
        if let os = self[.OS], os != "latest", !Self.isVersion(os) {
            throw fail("has OS '\(os)', which is not a version (write e.g. OS=18.2, or OS=latest)")
        }
        if let variant = self[.variant], self[.platform] != "macOS" {
            throw fail("gives variant '\(variant)' without 'platform=macOS' (variants are for macOS, e.g. variant=Mac Catalyst)")
        }
    }

    private static func isVersion(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return (1...3).contains(parts.count) && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }

    /// A simulator by name, and OS version when given (`platform` is one of the "... Simulator" platforms).
    public static func simulator(name: String, os: String? = nil, platform: String = "iOS Simulator") -> XcodeDestination {
        var pairs = [Pair(key: .platform, value: platform), Pair(key: .name, value: name)]
        if let os { pairs.append(Pair(key: .OS, value: os)) }
        return XcodeDestination(generic: false, pairs: pairs)
    }

    /// A device (or simulator) by its identifier (UDID).
    public static func device(id: String) -> XcodeDestination {
        XcodeDestination(generic: false, pairs: [Pair(key: .id, value: id)])
    }

    /// Any device of a platform (`generic/platform=iOS`), as archives use.
    public static func generic(platform: String) -> XcodeDestination {
        XcodeDestination(generic: true, pairs: [Pair(key: .platform, value: platform)])
    }

    /// This Mac, optionally one architecture and a variant ("Mac Catalyst").
    public static func mac(arch: String? = nil, variant: String? = nil) -> XcodeDestination {
        var pairs = [Pair(key: .platform, value: "macOS")]
        if let arch { pairs.append(Pair(key: .arch, value: arch)) }
        if let variant { pairs.append(Pair(key: .variant, value: variant)) }
        return XcodeDestination(generic: false, pairs: pairs)
    }
}
