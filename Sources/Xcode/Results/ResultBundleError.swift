import Foundation

/// Why a result bundle could not be read. Every message names the bundle and says what to do.
public enum ResultBundleError: LocalizedError, Equatable, Sendable {
    /// Nothing at the bundle's path.
    case bundleMissing(path: String)
    /// `xcrun xcresulttool` / `xccov` failed; `detail` is the first line of its standard error
    /// (or its exit status when it printed nothing).
    case toolFailed(path: String, command: String, detail: String)
    /// The tool's output is not the JSON expected; `reason` says where it went wrong.
    case malformedOutput(path: String, command: String, reason: String)
    /// `get test-results summary` and `get test-results tests` disagree on the counts; `detail`
    /// gives both.
    case countsDisagree(path: String, summary: String, tests: String, detail: String)

    public var errorDescription: String? {
        switch self {
        case .bundleMissing(let path):
            "Result bundle '\(path)' does not exist: xcodebuild stopped before writing it. Look in the raw log for why the run stopped."
        case .toolFailed(let path, let command, let detail):
            "Result bundle '\(path)' could not be read: '\(command)' failed: \(detail)\(detail.hasSuffix(".") ? "" : ".") Check that the bundle is complete "
                + "(xcodebuild was not killed while writing it) and that the selected Xcode is at least the one that wrote it."
        case .malformedOutput(let path, let command, let reason):
            "Result bundle '\(path)': the output of '\(command)' is not the JSON expected (\(reason)). "
                + "Run the command to see it, and report it with the output of 'xcodebuild -version'."
        case .countsDisagree(let path, let summary, let tests, let detail):
            "Result bundle '\(path)': '\(summary)' and '\(tests)' disagree: \(detail). slipway reports no counts it cannot trust; "
                + "run both commands to compare, and report them with the output of 'xcodebuild -version'."
        }
    }
}

/// What the injected `xcrun` runner throws when the tool exits non-zero: the reader tells an
/// `xcresulttool` too old for `get test-results` from a bundle it cannot read by this.
public struct XcrunFailure: Error, Equatable, Sendable {
    /// The exit status, or the signal's number negated.
    public var status: Int32
    /// The tool's standard error, as printed.
    public var standardError: String

    public init(status: Int32, standardError: String) {
        self.status = status
        self.standardError = standardError
    }

    /// The first non-empty line of standard error, or the exit status.
    var firstLine: String {
        let line = standardError.split(whereSeparator: \.isNewline).lazy
            .map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
        return line ?? (status < 0 ? "killed by signal \(-status)" : "exit status \(status)")
    }

    /// True when an `xcresulttool` from before Xcode 16 refused the `test-results` subcommand.
    /// Those print a usage error naming the unknown argument; a bundle they cannot open gives
    /// a different message, which is reported rather than retried with the legacy commands.
    var refusedSubcommand: Bool {
        let text = standardError.lowercased()
        return ["test-results", "unexpected argument", "unknown subcommand", "unknown option", "unrecognized", "usage:"]
            .contains { text.contains($0) }
    }
}

extension DecodingError {
    /// A short description: what was expected where (`testNodes[0].children[2].name`).
    var briefReason: String {
        func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
            }
            return text.isEmpty ? "the top level" : "'\(text)'"
        }
        switch self {
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not valid JSON" : "a bad value at \(path(context.codingPath))"
        case .typeMismatch(let type, let context):
            return "expected \(Self.typeName(type)) at \(path(context.codingPath))"
        case .valueNotFound(let type, let context):
            return "expected \(Self.typeName(type)) at \(path(context.codingPath)), found null"
        case .keyNotFound(let key, let context):
            return "no '\(key.stringValue)' at \(path(context.codingPath))"
        @unknown default:
            return "undecodable"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Double.Type, is Int.Type: "a number"
        case is [Any].Type: "an array"
        default: type == [String: Any].self ? "an object" : "\(type)"
        }
    }
}
