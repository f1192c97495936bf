import Basics
import Foundation

/// `cocoapods` → a `run` step with the command line fastlane builds: `bundle exec pod install`
/// when the project has a Gemfile (use_bundle_exec defaults to true), then its flags.
enum CocoaPodsTranslator: FastlaneActionTranslator {
    static let names = ["cocoapods"]
    static let documentation = docs("cocoapods")
    static let parameters: [FastlaneParameter] = [
        .handled("repo_update", "--repo-update on the pod install line"),
        .handled("clean_install", "--clean-install (fastlane passes it only to CocoaPods 1.7 and later; the lane always does)"),
        .handled("silent", "--silent on the pod install line"),
        .handled("verbose", "--verbose on the pod install line"),
        .handled("ansi", "--no-ansi when false"),
        .handled("use_bundle_exec", "bundle exec when true (the default) and the project has a Gemfile"),
        .handled("podfile", "cd to the Podfile's folder first, as fastlane does"),
        .listed("error_callback", "a Ruby block: the run step fails with pod's output instead; add a step under finally: for what the block did"),
        .handled("try_repo_update_on_error", "when the install fails, it runs again with --repo-update (… || … --repo-update)"),
        .handled("deployment", "--deployment on the pod install line"),
        .handled("allow_root", "--allow-root (fastlane passes it only to CocoaPods 1.10 and later; the lane always does)"),
        .handled("clean", "--no-clean when false (deprecated in fastlane)"),
        .handled("integrate", "--no-integrate when false (deprecated in fastlane)"),
    ]
    static let defaults = ["bundle exec pod install when a Gemfile is in the project folder (use_bundle_exec: true), else pod install"]

    static func translate(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) {
        guard let command = command(call, statement, into: &builder) else { return }
        builder.add("run", [DraftPair("command", .string(command))], from: statement)
    }

    /// fastlane's command line for the call; nil (listed) when the Podfile's place is only known
    /// when Ruby runs.
    static func command(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) -> String? {
        var prefix = ""
        if call.argument("podfile") != nil {
            guard case .string(let podfile)? = builder.literal(call, "podfile", statement) else {
                builder.skip(statement, "cocoapods with a podfile only Ruby knows: write the run step by hand (cd FOLDER && pod install)")
                return nil
            }
            // fastlane changes to the folder of a path ending in Podfile, else to the path itself.
            let folder = podfile.hasSuffix("Podfile") ? ((podfile as NSString).deletingLastPathComponent) : podfile
            prefix = "cd \(ShellQuoting.quote(folder.isEmpty ? "." : folder)) && "
        }
        var install = "pod install"
        if builder.flag(call, "use_bundle_exec", statement, default: true), builder.translator.projectHasGemfile {
            install = "bundle exec pod install"
        }
        var flags: [String] = []
        if !builder.flag(call, "clean", statement, default: true) { flags.append("--no-clean") }
        if !builder.flag(call, "integrate", statement, default: true) { flags.append("--no-integrate") }
        if builder.flag(call, "clean_install", statement, default: false) { flags.append("--clean-install") }
        if builder.flag(call, "allow_root", statement, default: false) { flags.append("--allow-root") }
        let repoUpdate = builder.flag(call, "repo_update", statement, default: false)
        if repoUpdate { flags.append("--repo-update") }
        if builder.flag(call, "silent", statement, default: false) { flags.append("--silent") }
        if builder.flag(call, "verbose", statement, default: false) { flags.append("--verbose") }
        if !builder.flag(call, "ansi", statement, default: true) { flags.append("--no-ansi") }
        if builder.flag(call, "deployment", statement, default: false) { flags.append("--deployment") }
        let line = ([install] + flags).joined(separator: " ")
        if !repoUpdate, builder.flag(call, "try_repo_update_on_error", statement, default: false) {
            return prefix + "(\(line) || \(line) --repo-update)"
        }
        return prefix + line
    }
}
