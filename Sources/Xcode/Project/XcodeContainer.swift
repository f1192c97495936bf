import Basics
import Foundation

/// A `.xcodeproj` or `.xcworkspace`: what `-project` / `-workspace` name and where schemes live.
public struct XcodeContainer: Sendable, Hashable {
    /// Project or workspace.
    public enum Kind: String, Sendable, Hashable { case project, workspace }

    /// The path as given, without a trailing slash.
    public let path: String
    public let kind: Kind

    /// A container by its extension.
    ///
    /// - Throws: `XcodeProjectError.notAContainer` when the extension is neither.
    public init(path: String) throws {
        var trimmed = path
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.path = trimmed
        switch (trimmed as NSString).pathExtension {
        case "xcodeproj": kind = .project
        case "xcworkspace": kind = .workspace
        default: throw XcodeProjectError.notAContainer(path: path, reason: "is neither an .xcodeproj nor an .xcworkspace")
        }
    }

    /// The name without the extension ("App" for "ios/App.xcodeproj").
    public var name: String { ((path as NSString).lastPathComponent as NSString).deletingPathExtension }

    /// The folder that holds the container.
    public var parentDirectory: String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }

    /// Throws `XcodeProjectError.notAContainer` unless the container is a directory with its
    /// defining file (`project.pbxproj` or `contents.xcworkspacedata`).
    public func checkExists(fileSystem: FileSystem) throws {
        guard fileSystem.kind(of: path) == .directory else {
            throw XcodeProjectError.notAContainer(path: path, reason: "does not exist")
        }
        let file = kind == .project ? "project.pbxproj" : "contents.xcworkspacedata"
        guard fileSystem.kind(of: path + "/" + file) == .file else {
            throw XcodeProjectError.notAContainer(path: path, reason: "has no \(file)")
        }
    }
}
