import Foundation

/// Every path under a folder with its contents and permissions, for "nothing on disk changed"
/// checks: two snapshots are equal when the trees are the same byte for byte.
public enum Snapshot {
    /// The snapshot of `root`, keyed by paths relative to it.
    public static func of(_ root: String) throws -> [String: String] {
        var result: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String {
            let attributes = try FileManager.default.attributesOfItem(atPath: root + "/" + relative)
            let data = FileManager.default.contents(atPath: root + "/" + relative) ?? Data()
            result[relative] = "\(attributes[.posixPermissions] ?? 0) \(data.base64EncodedString())"
        }
        return result
    }
}
