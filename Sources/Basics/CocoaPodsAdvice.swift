/// What Slipway says when CocoaPods' files (`Pods/`, the `Pods.xcodeproj` a workspace lists, the
/// `Pods-….xcconfig` a target is based on) are not there yet: one wording, for `version.bump`,
/// every `xcode.*` step and `validate`'s note.
public enum CocoaPodsAdvice {
    /// The command to run, as fastlane's `cocoapods` action would (through Bundler when a Gemfile
    /// pins CocoaPods).
    public static let install = "run `pod install` (or `bundle exec pod install` when a Gemfile exists)"

    /// Said of a missing file CocoaPods writes: "(CocoaPods writes it: run `pod install` (or …) before this step)".
    public static let writesIt = "CocoaPods writes it: \(install) before this step"

    /// `validate`'s note, said once per lane, for a Podfile without `Pods/` beside it.
    public static let notInstalled = "CocoaPods not installed yet (Pods/ is missing): \(install) before the xcode steps"

    /// True when `path` lies in a `Pods/` folder (`Pods/Pods.xcodeproj`,
    /// `Pods/Target Support Files/…`).
    public static func isCocoaPodsPath(_ path: String) -> Bool {
        path.hasPrefix("Pods/") || path.contains("/Pods/")
    }

    /// True when `folder` holds a Podfile but no `Pods/` folder: `pod install` has not run there.
    public static func isNotInstalled(in folder: String, fileSystem: any FileSystem) -> Bool {
        fileSystem.kind(of: folder + "/Podfile") == .file && fileSystem.kind(of: folder + "/Pods") == nil
    }
}
