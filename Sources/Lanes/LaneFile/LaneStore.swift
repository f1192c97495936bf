import Basics
import Foundation

/// The lane files of a project: `lanes/*.yml` (and `.yaml`) under the project directory.
public struct LaneStore: Sendable {
    /// The project's root.
    public let projectDirectory: String
    /// The lanes folder, relative to the project (default `lanes`).
    public let lanesDirectory: String
    let fileSystem: any FileSystem

    /// A store for `projectDirectory/lanesDirectory`.
    public init(projectDirectory: String, lanesDirectory: String = "lanes", fileSystem: any FileSystem) {
        self.projectDirectory = projectDirectory
        self.lanesDirectory = lanesDirectory
        self.fileSystem = fileSystem
    }

    var absoluteDirectory: String {
        lanesDirectory.hasPrefix("/") ? lanesDirectory : projectDirectory + "/" + lanesDirectory
    }

    /// The lane names, sorted. Throws `LaneStoreError.noLanesDirectory` when the folder is missing.
    public func names() throws -> [String] {
        guard fileSystem.isDirectory(absoluteDirectory) else {
            throw LaneStoreError.noLanesDirectory(lanesDirectory)
        }
        return try fileSystem.contents(ofDirectory: absoluteDirectory).compactMap { name in
            if name.hasPrefix(".") { return nil }
            if name.hasSuffix(".yml") { return String(name.dropLast(4)) }
            if name.hasSuffix(".yaml") { return String(name.dropLast(5)) }
            return nil
        }.sorted()
    }

    /// The file of lane `name` as shown in messages (relative to the project).
    public func displayPath(of name: String) -> String {
        let yml = "\(lanesDirectory)/\(name).yml"
        if fileSystem.exists(absolute(yml)) { return yml }
        let yaml = "\(lanesDirectory)/\(name).yaml"
        return fileSystem.exists(absolute(yaml)) ? yaml : yml
    }

    private func absolute(_ relative: String) -> String {
        relative.hasPrefix("/") ? relative : projectDirectory + "/" + relative
    }

    /// Reads and parses lane `name`. Throws `LaneStoreError.unknownLane` (with the nearest
    /// name), `FileSystemError.notUTF8`, or `DiagnosticsError` for problems in the file.
    public func load(_ name: String) throws -> Lane {
        let available = try names()
        guard available.contains(name) else {
            throw LaneStoreError.unknownLane(name, available: available, directory: lanesDirectory)
        }
        let display = displayPath(of: name)
        let text: String
        do {
            text = try fileSystem.readText(absolute(display), as: .laneFile)
        } catch FileSystemError.notUTF8(_, let location) {
            throw DiagnosticsError([Diagnostic(at: SourceLocation(file: display, line: location.line, column: location.column),
                "the lane file is not valid UTF-8 (byte at this position). Save it as UTF-8.")])
        }
        return try LaneFileParser.parse(text, name: name, file: display)
    }
}

/// Problems finding lanes.
public enum LaneStoreError: Error, LocalizedError, Sendable, Equatable {
    case noLanesDirectory(String)
    case unknownLane(String, available: [String], directory: String)

    public var errorDescription: String? {
        switch self {
        case .noLanesDirectory(let directory):
            return "the lane directory '\(directory)' does not exist. Run 'slipway init' to create starter lanes, or pass --lanes DIR."
        case .unknownLane(let name, let available, let directory):
            let hint = Suggestions.didYouMean(name, in: available)
            let list = available.isEmpty ? "there are no lanes in '\(directory)'" : "available: \(available.joined(separator: ", "))"
            return "there is no lane '\(name)' in '\(directory)'.\(hint) (\(list))"
        }
    }
}
