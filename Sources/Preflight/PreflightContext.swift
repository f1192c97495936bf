import AppleAPI
import Basics
import Foundation
import Release

/// What `slipway preflight` and the `appstore.preflight` step are asked to check.
public struct PreflightOptions: Sendable {
    /// The project's root folder (absolute).
    public var root: String
    /// The `.xcodeproj` (absolute), or nil to find the one in the root (or one folder down).
    public var xcodeproj: String?
    /// The build configuration whose settings ship (`Release`).
    public var configuration = "Release"
    /// The lane's distribution: app-store, ad-hoc, development or enterprise (the profiles' kind).
    public var distribution = "app-store"
    /// The App Store Connect platform (IOS, MAC_OS, TV_OS, VISION_OS).
    public var platform = "IOS"
    /// The application target to check when the project holds several (`--app`).
    public var app: String?
    /// Where the upload goes: `app-store` (a release for review) or `testflight` (a beta only,
    /// which App Store Connect takes for any open version: the version being prepared and the
    /// listing are not its concern).
    public var destination = "app-store"
    /// A folder of provisioning profiles (`.mobileprovision`, `.provisionprofile`) to check
    /// signing against; nil skips the signing rule.
    public var profilesPath: String?
    /// deliver's metadata folder (absolute); a missing folder skips the listing texts.
    public var metadataPath: String?
    /// deliver's screenshots folder (absolute); a missing folder skips the screenshots.
    public var screenshotsPath: String?
    /// Now, for expiry dates.
    public var now = Date()
    /// At most this many entries of the checkout are looked at (`PreflightFiles.budget`; tests lower it).
    public var walkBudget = PreflightFiles.budget

    /// Options for the project at `root`.
    public init(root: String) {
        self.root = root
    }
}

/// What App Store Connect says about the app, read once by the runner for the remote rules.
public struct PreflightRemoteFacts: Sendable {
    /// The bundle id looked up (the app target's).
    public var bundleID: String
    /// The app with that bundle id, or nil when the account has none.
    public var app: AppStoreConnectApp?
    /// The app's App Store versions on the platform, every state.
    public var versions: [AppStoreVersion] = []
    /// The build numbers uploaded for the project's version (every page; failed uploads left out).
    public var buildNumbers: [String] = []
    /// The version whose builds were read.
    public var version: String?

    /// Facts.
    public init(bundleID: String, app: AppStoreConnectApp?, versions: [AppStoreVersion] = [], buildNumbers: [String] = [], version: String? = nil) {
        self.bundleID = bundleID
        self.app = app
        self.versions = versions
        self.buildNumbers = buildNumbers
        self.version = version
    }
}

/// Everything a rule reads: the options, the project (or why it could not be read), the disk
/// (through the project's door) and App Store Connect's facts when a key was given.
public struct PreflightContext: Sendable {
    /// The options.
    public var options: PreflightOptions
    /// The project as read, or nil.
    public var project: PreflightProject?
    /// Why the project could not be read (the rules that need it are skipped with this).
    public var projectProblem: String?
    /// Which app was checked in a project of several, and why (shown in the report).
    public var applicationChoice: String?
    /// Why no app could be chosen (an `--app` naming no application), or nil.
    public var applicationChoiceProblem: String?
    /// The app's version as `slipway version` reads it (shipping targets, xcconfig chains), or nil.
    public var projectVersion: ProjectVersion?
    /// Why `projectVersion` could not be read.
    public var projectVersionProblem: String?
    /// The disk, through the door.
    public var fileSystem: any FileSystem
    /// App Store Connect's facts; nil without a key.
    public var remote: PreflightRemoteFacts?
    /// Why a key was given and the remote rules still cannot run (no bundle id to look up).
    public var remoteSkipReason: String?

    /// The path relative to the root, for messages.
    public func display(_ path: String) -> String { ProjectFiles(root: options.root, fileSystem: fileSystem).display(path) }
}
