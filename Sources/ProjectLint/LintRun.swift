import Basics
import Foundation
import PBXProj

/// Why a lint run could not start (exit status 2).
public enum LintError: Error, LocalizedError, Sendable, Equatable {
    /// The path is not an `.xcodeproj` folder or a `project.pbxproj` file.
    case notAProject(path: String)
    /// A pbxproj file outside an `.xcodeproj` folder: the project's folder (where its files are)
    /// and its name cannot be known.
    case outsideBundle(path: String)
    /// The project file exists but is not a project Slipway can read (other than conflict
    /// markers and duplicate ids, which are findings).
    case unreadableProject(path: String, line: Int?, column: Int?, reason: String)
    /// The configuration file is missing or invalid.
    case configuration([Diagnostic])

    public var errorDescription: String? {
        switch self {
        case .notAProject(let path):
            return "'\(path)' is not an Xcode project: give the .xcodeproj folder or the project.pbxproj inside it"
        case .outsideBundle(let path):
            return "'\(path)' is not inside an .xcodeproj folder, so lint cannot tell the project's folder or name "
                + "(its file checks would look in the wrong place): give the .xcodeproj that holds it, "
                + "or put the file back as NAME.xcodeproj/project.pbxproj next to the project's files"
        case .unreadableProject(let path, let line, let column, let reason):
            let place = line.map { ":\($0)" + (column.map { ":\($0)" } ?? "") } ?? ""
            return "\(path)\(place): \(reason); lint needs a project it can read"
        case .configuration(let diagnostics):
            return diagnostics.map { $0.location == nil ? $0.message : $0.description }.joined(separator: "\n")
        }
    }
}

/// One lint run as the command and the lane step do it: locate the project and its
/// configuration, read both, run the rules.
public struct LintRun: Sendable {
    /// The project's files.
    public let file: ProjectFile
    /// What the rules saw.
    public let context: LintContext
    /// The configuration in force.
    public let configuration: LintConfiguration
    /// The configuration file read, if any.
    public let configurationPath: String?

    /// Reads the project at `path` and the configuration (`configurationPath`, else
    /// `.slipway/lint.yml` in the project's folder or the repository's root).
    /// - Throws: `LintError`.
    public init(path: String, configurationPath: String? = nil, fileSystem: any FileSystem) throws {
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        let file = ProjectFile(path: trimmed)
        guard fileSystem.kind(of: file.pbxprojPath) != nil, !fileSystem.isDirectory(file.pbxprojPath) else {
            throw LintError.notAProject(path: path)
        }
        if !fileSystem.isDirectory(trimmed), !trimmed.hasSuffix(".xcodeproj"),
            !fileSystem.exists(file.projectDirectory + "/" + file.projectName + ".xcodeproj/" + ProjectPath.lastComponent(trimmed)) {
            throw LintError.outsideBundle(path: path)
        }
        let bytes: [UInt8]
        do { bytes = try fileSystem.read(file.pbxprojPath, as: .projectFile) } catch {
            throw LintError.unreadableProject(path: file.pbxprojPath, line: nil, column: nil, reason: errorText(error))
        }
        let files = LintFiles.disk(fileSystem, projectDirectory: file.projectDirectory)
        let context = LintContext(bytes: bytes, projectName: file.projectName, pbxprojPath: file.pbxprojPath, files: files)
        if let error = context.readError {
            switch error {
            case .mergeConflict, .duplicateObjectID: break
            default:
                throw LintError.unreadableProject(path: file.pbxprojPath, line: error.location?.line, column: error.location?.column,
                                                  reason: error.message)
            }
        }
        var configPath = configurationPath
        if configPath == nil {
            var candidates = [file.projectDirectory + "/" + LintConfiguration.defaultPath]
            if let root = files.repositoryRoot, !root.isEmpty {
                candidates.append(ProjectPath.normalize(file.projectDirectory + "/" + root) + "/" + LintConfiguration.defaultPath)
            }
            configPath = candidates.first { fileSystem.exists($0) }
        } else if let given = configPath, !fileSystem.exists(given) {
            throw LintError.configuration([Diagnostic(at: nil, "\(given): no such lint configuration; create it or leave out --config")])
        }
        var configuration = LintConfiguration()
        if let configPath {
            do {
                let text = String(decoding: try fileSystem.read(configPath, as: .configuration), as: UTF8.self)
                configuration = try LintConfiguration.parse(text, file: configPath)
            } catch let error as DiagnosticsError {
                throw LintError.configuration(error.diagnostics)
            } catch {
                throw LintError.configuration([Diagnostic(at: nil, "\(configPath): cannot be read: \(errorText(error))")])
            }
        }
        self.file = file
        self.context = context
        self.configuration = configuration
        self.configurationPath = configPath
    }

    /// Runs the rules.
    public func report() -> LintReport {
        LintEngine.run(context, configuration: configuration)
    }
}
