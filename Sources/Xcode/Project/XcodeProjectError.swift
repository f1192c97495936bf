import Basics
import Foundation

/// What is wrong with a project, scheme, destination, export options, archive, Xcode choice or
/// `xcodebuild` command line, found before anything runs. Each message quotes the subject and
/// says what to do.
public enum XcodeProjectError: Error, LocalizedError, Sendable, Equatable {
    /// A `.xcodeproj` / `.xcworkspace` path that is not one (wrong extension, or missing).
    case notAContainer(path: String, reason: String)
    /// A project under `Pods/` that the workspace lists and that `pod install` has not written yet.
    case podsNotInstalled(path: String, workspaceData: String)
    /// A scheme whose app target is built for another platform than the step's destination.
    case schemePlatformMismatch(scheme: String, target: String, sdk: String, place: String, destination: String, wanted: String, others: [String])
    /// An XML file (scheme, workspace data) that does not parse.
    case malformedXML(path: String, line: Int, column: Int, reason: String)
    /// A property list (version.plist, archive Info.plist, ExportOptions.plist) that does not read.
    case malformedPropertyList(path: String, reason: String)
    /// A scheme that the container does not have.
    case schemeNotFound(name: String, container: String, available: [String])
    /// A `-destination` string that xcodebuild would refuse.
    case invalidDestination(option: String, value: String, problem: String)
    /// An export method that Xcode does not know.
    case unknownExportMethod(name: String)
    /// Export options that Xcode would refuse; every problem found.
    case invalidExportOptions(path: String?, problems: [String])
    /// An archive whose Info.plist lacks what the steps need.
    case invalidArchive(path: String, problem: String)
    /// An Xcode constraint that does not parse.
    case invalidXcodeConstraint(constraint: String, problem: String)
    /// No installed Xcode matches the constraint.
    case noMatchingXcode(constraint: String, folder: String, found: [String])
    /// Options for `xcodebuild` that contradict each other or are malformed; every problem found.
    case invalidInvocation(problems: [String])

    public var errorDescription: String? {
        switch self {
        case .notAContainer(let path, let reason):
            return "'\(path)' \(reason). Give the path of an .xcodeproj or .xcworkspace."
        case .podsNotInstalled(let path, let data):
            return "'\(path)' is listed in '\(data)' but does not exist (\(CocoaPodsAdvice.writesIt))."
        case .schemePlatformMismatch(let scheme, let target, let sdk, let place, let destination, let wanted, let others):
            let choice = others.isEmpty ? "a scheme whose app target is built for \(wanted)"
                : "the scheme for \(wanted) (\(others.map { "'\($0)'" }.joined(separator: ", ")))"
            return "scheme '\(scheme)' builds the app target '\(target)' for \(sdk) (\(place)), not for destination '\(destination)' (\(wanted)): "
                + "give \(choice), or a destination of the target's platform."
        case .malformedXML(let path, let line, let column, let reason):
            return "\(path):\(line):\(column): malformed XML: \(reason). Fix the file (or recreate it in Xcode)."
        case .malformedPropertyList(let path, let reason):
            return "'\(path)' is not a readable property list: \(reason). Fix or recreate the file."
        case .schemeNotFound(let name, let container, let available):
            let list = available.isEmpty ? "it has no schemes" : "its schemes: " + available.map { "'\($0)'" }.joined(separator: ", ")
            return "No scheme '\(name)' in '\(container)' (\(list)).\(Suggestions.didYouMean(name, in: available))"
                + (available.isEmpty ? " Share a scheme in Xcode (Product > Scheme > Manage Schemes > Shared)." : "")
        case .invalidDestination(let option, let value, let problem):
            return "Option '\(option)': '\(value)' \(problem). Example: 'platform=iOS Simulator,name=iPhone 16,OS=18.2'."
        case .unknownExportMethod(let name):
            let suggestion: String = Suggestions.didYouMean(name, in: ExportMethod.allNames)
            let current: String = ExportMethod.allCases.map(\.rawValue).joined(separator: ", ")
            let deprecated: String = ExportMethod.aliases.keys.sorted().joined(separator: ", ")
            return "Unknown export method '\(name)'.\(suggestion) Valid methods: \(current) (and the deprecated \(deprecated))."
        case .invalidExportOptions(let path, let problems):
            return "Export options" + (path.map { " in '\($0)'" } ?? "") + ": " + problems.joined(separator: "; ") + "."
        case .invalidArchive(let path, let problem):
            return "Archive '\(path)': \(problem)."
        case .invalidXcodeConstraint(let constraint, let problem):
            return "Xcode version constraint '\(constraint)': \(problem). Examples: '16.2', '16', '^16', '~16.2', '>=16.1, <17'."
        case .noMatchingXcode(let constraint, let folder, let found):
            let list = found.isEmpty ? "no Xcode*.app found" : "found " + found.joined(separator: ", ")
            return "No Xcode in '\(folder)' matches '\(constraint)' (\(list)). Install a matching Xcode or set DEVELOPER_DIR."
        case .invalidInvocation(let problems):
            return "xcodebuild options: " + problems.joined(separator: "; ") + "."
        }
    }
}
