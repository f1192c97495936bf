import Foundation

/// A fresh directory under the system's temporary folder, removed again when the value is
/// released. Each test makes its own, so tests never share state on disk.
public final class TemporaryDirectory: @unchecked Sendable {
    /// The directory's absolute path, without a trailing slash.
    public let path: String

    /// Creates the directory. `prefix` shows in the name, to find leftovers of a crashed run.
    public init(prefix: String = "slipway-test") throws {
        let template = (NSTemporaryDirectory() as NSString).appendingPathComponent("\(prefix)-XXXXXX")
        var bytes = Array(template.utf8CString)
        guard let made = mkdtemp(&bytes) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: template])
        }
        path = String(cString: made)
    }

    /// `path` joined with a relative path.
    public func url(_ relative: String = "") -> URL {
        URL(fileURLWithPath: relative.isEmpty ? path : path + "/" + relative)
    }

    /// Writes `contents` at the relative path, creating folders on the way.
    @discardableResult
    public func write(_ relative: String, _ contents: String) throws -> String {
        let full = path + "/" + relative
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: URL(fileURLWithPath: full))
        return full
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
