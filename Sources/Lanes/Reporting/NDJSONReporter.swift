import Basics
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--events FILE`: every event as one JSON line (schema in docs/events.md), written as it
/// happens so that a tail of the file follows the run.
public final class NDJSONReporter: RunReporter, @unchecked Sendable {
    private let handle: FileHandle
    private let path: String

    /// Creates (or empties) the file through `fileSystem` (the CLI's goes through the door: a
    /// path inside the project is never written through a link, nor in a folder that leads
    /// outside), then keeps it open for appending. Throws when it cannot be created.
    public init(path: String, fileSystem: any FileSystem) throws {
        self.path = path
        try fileSystem.writeAtomically([], to: path)
        let target = try (fileSystem as? ProjectFileSystem)?.files.checkedForWriting(path) ?? path
        // door: the file just made through the door, in the folder it resolved; O_NOFOLLOW.
        let descriptor = open(target, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileSystemError.from(errno: errno, path: path, operation: "open the events file") }
        self.handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
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
