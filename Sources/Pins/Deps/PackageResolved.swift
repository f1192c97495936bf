import Foundation

/// SwiftPM's `Package.resolved`, versions 1, 2 and 3, read into one shape.
struct PackageResolved: Sendable, Hashable {
    /// One pinned package.
    struct Pin: Sendable, Hashable {
        /// SwiftPM's identity: the last path component of the URL, lower-cased, without `.git`.
        var identity: String
        var location: String
        var revision: String
        var version: String?
        var branch: String?
    }

    static let supportedVersions = [1, 2, 3]
    static let fix = "Run 'swift package resolve' (or let Xcode resolve packages) to write it again."

    var version: Int
    var originHash: String?
    var pins: [Pin]

    /// Parses the file's bytes; `file` names it in errors.
    /// - Throws: `PinsError.malformedDependencyFile`, `.unsupportedDependencyFileVersion`.
    static func parse(_ bytes: [UInt8], file: String) throws -> PackageResolved {
        func malformed(_ reason: String) -> PinsError {
            .malformedDependencyFile(file: file, line: nil, reason: reason, fix: fix)
        }
        guard let root = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else {
            throw malformed("it is not a JSON object")
        }
        guard let version = root["version"] as? Int else { throw malformed("it has no numeric 'version'") }
        guard supportedVersions.contains(version) else {
            throw PinsError.unsupportedDependencyFileVersion(file: file, version: version, supported: supportedVersions)
        }
        let rawPins: Any?
        if version == 1 {
            rawPins = (root["object"] as? [String: Any])?["pins"]
        } else {
            rawPins = root["pins"]
        }
        guard let list = rawPins as? [[String: Any]] else {
            throw malformed(version == 1 ? "'object.pins' is not a list of objects" : "'pins' is not a list of objects")
        }
        var pins: [Pin] = []
        for (index, raw) in list.enumerated() {
            pins.append(try pin(raw, version: version, index: index, malformed: malformed))
        }
        var seen = Set<String>()
        for pin in pins where !seen.insert(pin.identity).inserted {
            throw malformed("'\(pin.identity)' is pinned twice")
        }
        let originHash = root["originHash"] as? String
        if version == 3, originHash == nil { throw malformed("a version 3 file must have an 'originHash'") }
        return PackageResolved(version: version, originHash: originHash, pins: pins)
    }

    private static func pin(_ raw: [String: Any], version: Int, index: Int,
                            malformed: (String) -> PinsError) throws -> Pin {
        let location = (version == 1 ? raw["repositoryURL"] : raw["location"]) as? String
        let identity = version == 1 ? location.map(identity(of:)) : raw["identity"] as? String
        guard let location, let identity, !identity.isEmpty else {
            throw malformed("pin \(index + 1) has no \(version == 1 ? "'repositoryURL'" : "'identity' and 'location'")")
        }
        guard let state = raw["state"] as? [String: Any] else { throw malformed("pin '\(identity)' has no 'state'") }
        let revision = state["revision"] as? String ?? ""
        let kind = raw["kind"] as? String
        // Registry pins have a version and no revision; every other pin needs a full commit id.
        if kind != "registry" {
            guard revision.count == 40, revision.allSatisfy(\.isHexDigit) else {
                throw malformed("pin '\(identity)' has revision '\(revision)', which is not a 40-character commit id")
            }
        }
        let pinnedVersion = state["version"] as? String
        if let pinnedVersion, GemVersion(pinnedVersion) == nil {
            throw malformed("pin '\(identity)' has version '\(pinnedVersion)', which is not a version")
        }
        return Pin(identity: identity.lowercased(), location: location, revision: revision.lowercased(),
                   version: pinnedVersion, branch: state["branch"] as? String)
    }

    /// SwiftPM's identity for a URL or path: its last component, without `.git`, lower-cased.
    static func identity(of location: String) -> String {
        var last = location.split(separator: "/").last.map(String.init) ?? location
        if last.hasSuffix(".git") { last.removeLast(4) }
        return last.lowercased()
    }
}

/// The checkouts recorded in `.build/workspace-state.json`: identity → revision.
enum WorkspaceState {
    /// The checked-out revision of each source-control dependency; edited and local ones are
    /// left out. Nil when the file cannot be read (it is SwiftPM's private file, so an
    /// unknown shape is not an error, just nothing to compare).
    static func checkouts(_ bytes: [UInt8]) -> [String: String]? {
        guard let root = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any],
              let dependencies = (root["object"] as? [String: Any])?["dependencies"] as? [[String: Any]]
        else { return nil }
        var result: [String: String] = [:]
        for dependency in dependencies {
            guard let reference = dependency["packageRef"] as? [String: Any],
                  let identity = reference["identity"] as? String,
                  let state = dependency["state"] as? [String: Any],
                  ["checkout", "sourceControlCheckout"].contains(state["name"] as? String ?? ""),
                  let checkout = state["checkoutState"] as? [String: Any],
                  let revision = checkout["revision"] as? String
            else { continue }
            result[identity.lowercased()] = revision.lowercased()
        }
        return result
    }
}
