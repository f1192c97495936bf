import Foundation

/// Every path under a folder with its contents and permissions, for "nothing on disk changed"
/// checks: two snapshots are equal when the trees are the same byte for byte. A symbolic link
/// is recorded as where it points, never followed (a hostile fixture's link to `/dev/zero` or
/// to a folder outside is part of the tree, not something to read).
public enum Snapshot {
    /// The snapshot of `root`, keyed by paths relative to it.
    public static func of(_ root: String) throws -> [String: String] {
        var result: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String {
            let path = root + "/" + relative
            if let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
                result[relative] = "link -> \(destination)"
                enumerator?.skipDescendants()
                continue
            }
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let data = attributes[.type] as? FileAttributeType == .typeRegular ? FileManager.default.contents(atPath: path) ?? Data() : Data()
            result[relative] = "\(attributes[.posixPermissions] ?? 0) \(data.base64EncodedString())"
        }
        return result
    }
}
