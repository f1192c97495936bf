import Foundation

/// Why a file could not be notarized. Each message names the file or submission and says what
/// to do.
public enum NotaryError: Error, LocalizedError, Sendable, Equatable {
    /// There is nothing at the path.
    case missingFile(path: String)
    /// The path is an app bundle (or another folder): the service takes one file.
    case folder(path: String)
    /// The file is not a .zip, .pkg or .dmg.
    case unsupportedType(path: String)
    /// The submission ended Invalid or Rejected; `issues` are the log's lines.
    case notAccepted(file: String, submissionID: String, status: String, summary: String?, issues: [String])
    /// The submission did not finish in time.
    case timedOut(submissionID: String, seconds: Int, lastStatus: String)
    /// The service answered without what the flow needs.
    case unexpectedAnswer(step: String, problem: String)
    /// The developer log could not be fetched or read.
    case unreadableLog(submissionID: String, problem: String)

    public var errorDescription: String? {
        switch self {
        case .missingFile(let path):
            return "'\(path)' does not exist. Give the .zip, .pkg or .dmg an earlier step made (archive, xcode.export)."
        case .folder(let path):
            let name = (path as NSString).lastPathComponent
            let zip = ((name as NSString).deletingPathExtension.isEmpty ? name : (name as NSString).deletingPathExtension) + ".zip"
            let what = name.hasSuffix(".app") ? "an app bundle (a folder)" : "a folder"
            return "'\(path)' is \(what); the notary service takes one .zip, .pkg or .dmg file. Zip it first with "
                + "'ditto -c -k --keepParent \(name) \(zip)' (or the archive step with output: \(zip)) and notarize the zip."
        case .unsupportedType(let path):
            let ext = (path as NSString).pathExtension
            return "'\(path)' is \(ext.isEmpty ? "a file without an extension" : "a .\(ext) file"); the notary service takes a .zip, "
                + ".pkg or .dmg. Zip an app with 'ditto -c -k --keepParent App.app App.zip' (or the archive step), or build a .pkg or .dmg."
        case let .notAccepted(file, id, status, summary, issues):
            let head = "the notary service marked '\(file)' \(status) (submission \(id))" + (summary.map { ": \($0)" } ?? "")
            let list = issues.isEmpty ? " The log lists no issues." : "\n" + issues.map { "  - " + $0 }.joined(separator: "\n")
            return head + "." + list + "\nFix what the log says (https://developer.apple.com/documentation/security/resolving-common-notarization-issues), "
                + "sign again and submit again."
        case let .timedOut(id, seconds, lastStatus):
            return "submission \(id) did not finish within \(seconds) s (last status: \(lastStatus)). Apple may still be checking it: "
                + "raise the timeout, or run again later (an Accepted submission of the same file is found, not sent again)."
        case let .unexpectedAnswer(step, problem):
            return "the notary service's answer to \(step) lacks what notarization needs: \(problem)."
        case let .unreadableLog(id, problem):
            return "the developer log of submission \(id) could not be read: \(problem). Look at it with "
                + "'xcrun notarytool log \(id)' on a Mac, or run again."
        }
    }
}
