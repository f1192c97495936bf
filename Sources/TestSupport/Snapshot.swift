import Foundation

/// Every path under a folder with its contents and permissions, for "nothing on disk changed"
/// checks: two snapshots are equal when the trees are the same byte for byte.
public enum Snapshot {
    /// The snapshot of `root`, keyed by paths relative to it.
    public static func of(_ root: String) throws -> [String: String] {
        var result: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String {
            let path = root + "/" + relative
            // A link is recorded as its target and never read through (it may name /dev/zero or a
            // FIFO in a hostile-checkout test); devices, FIFOs and sockets by their kind alone.
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFLNK:
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
                result[relative] = "link -> \(target)"
            case S_IFREG, S_IFDIR:
                let attributes = try FileManager.default.attributesOfItem(atPath: path)
                let data = (info.st_mode & S_IFMT) == S_IFREG ? (FileManager.default.contents(atPath: path) ?? Data()) : Data()
                result[relative] = "\(attributes[.posixPermissions] ?? 0) \(data.base64EncodedString())"
            default:
                result[relative] = "special \(info.st_mode & S_IFMT)"
            }
        }
        return result
    }
}
