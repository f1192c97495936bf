import Basics
import Foundation

/// `--events FILE`: every event as one JSON line (schema in docs/events.md), written as it
/// happens so that a tail of the file follows the run.
public final class NDJSONReporter: RunReporter, @unchecked Sendable {
    private let handle: FileHandle
    private let path: String

    /// Creates (or truncates) the file. Throws when it cannot be opened.
    public init(path: String) throws {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw FileSystemError.failed(path: path, operation: "create the events file", reason: "check that its folder exists and is writable")
        }
        self.handle = handle
    }

    public func receive(_ event: RunEvent) {
        guard let text = try? JSONFormatting.line(event) else { return }
        handle.write(Data((text + "\n").utf8))
    }

    public func finish(_ summary: RunSummary) throws {
        try handle.synchronize()
        try handle.close()
    }
}
