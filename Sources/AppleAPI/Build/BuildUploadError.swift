import Foundation

/// Why a build could not be read or uploaded. Each message names the file or build and says
/// what to do.
public enum BuildUploadError: Error, LocalizedError, Sendable, Equatable {
    /// The file does not exist or is not a regular file.
    case missingFile(path: String)
    /// The file is not a zip archive.
    case notAnArchive(path: String, reason: String)
    /// The archive has no `Payload/NAME.app/Info.plist`.
    case noInfoPlist(path: String)
    /// The Info.plist is not a property list.
    case unreadableInfoPlist(path: String, entry: String)
    /// The Info.plist expands past the property-list budget (`limit` says which bound).
    case infoPlistOverBudget(path: String, entry: String, limit: String)
    /// The Info.plist lacks a key.
    case missingKey(path: String, key: String)
    /// A `.pkg` was given without bundle id, version and build number.
    case pkgNeedsOverrides(path: String)
    /// The app is over Apple's size limit.
    case tooLarge(path: String, uncompressedSize: UInt64)
    /// Apple already has this build number for this version (409).
    case duplicateBuild(version: String, buildNumber: String, detail: String)
    /// Apple reported the upload as failed.
    case uploadFailed(path: String, problems: [String])
    /// Processing did not finish in time.
    case timedOut(what: String, seconds: Int, lastState: String)
    /// Apple's processing marked the build invalid or failed.
    case processingFailed(buildID: String, state: String)
    /// Apple answered without what the flow needs.
    case unexpectedAnswer(step: String, problem: String)
    /// The upload is COMPLETE, but no build for it turned up (linkage or lookup) before the timeout.
    case buildNotFound(uploadID: String, version: String, buildNumber: String, seconds: Int)

    public var errorDescription: String? {
        switch self {
        case .missingFile(let path):
            return "'\(path)' is not a file. Give the path of the .ipa (or .pkg) an earlier step exported."
        case let .notAnArchive(path, reason):
            return "'\(path)' is not a readable .ipa (zip) archive: \(reason). Give the .ipa that xcode.export (or Xcode) wrote."
        case .noInfoPlist(let path):
            return "'\(path)' has no Payload/NAME.app/Info.plist, so it is not an app archive. Give the .ipa that xcode.export (or Xcode) wrote."
        case let .unreadableInfoPlist(path, entry):
            return "'\(entry)' in '\(path)' is not a property list. Rebuild and export the app."
        case let .infoPlistOverBudget(path, entry, limit):
            return "'\(entry)' in '\(path)' exceeds slipway's property-list budget: \(limit). "
                + "The archive may be hostile (a small file that expands to a huge one); slipway stopped reading it. Check where the .ipa came from."
        case let .missingKey(path, key):
            return "the Info.plist in '\(path)' has no \(key). Set it in the target's build settings, or pass the matching option of appstore.upload."
        case .pkgNeedsOverrides(let path):
            return "'\(path)' is a .pkg, whose Info.plist slipway does not read. Pass the bundle-id, version and build-number options."
        case let .tooLarge(path, size):
            return "'\(path)' holds \(size) bytes uncompressed; Apple requires an app's total uncompressed size to be less than 4 GB "
                + "(https://developer.apple.com/help/app-store-connect/reference/maximum-build-file-sizes). "
                + "Move large assets to on-demand resources or Background Assets."
        case let .duplicateBuild(version, build, detail):
            return "build number \(build) already used for version \(version)\(detail.isEmpty ? "" : " (\(detail))"): "
                + "bump the build number (version.bump's build-number, or appstore.build-number's next)."
        case let .uploadFailed(path, problems):
            return "App Store Connect reported the upload of '\(path)' as failed: \(problems.joined(separator: "; ")). "
                + "Fix what it says and upload a new build number."
        case let .timedOut(what, seconds, lastState):
            return "\(what) did not finish within \(seconds) s (last state: \(lastState)). "
                + "Apple may still be processing it: raise the timeout, or run again later (the upload is not repeated)."
        case let .processingFailed(buildID, state):
            return "App Store Connect finished processing build \(buildID) as \(state). Check the email Apple sent about it, fix the build and upload a new build number."
        case let .unexpectedAnswer(step, problem):
            return "App Store Connect's answer to \(step) lacks what the upload needs: \(problem)."
        case let .buildNotFound(uploadID, version, buildNumber, seconds):
            return "build upload \(uploadID) is COMPLETE, but App Store Connect showed no build for version \(version) (\(buildNumber)) "
                + "within \(seconds) s: the upload names none and GET /v1/builds finds none. Slipway does not go on without a build id: "
                + "look for the build in App Store Connect (TestFlight → Builds) and run again later (the upload is not repeated), or raise the timeout."
        }
    }
}
