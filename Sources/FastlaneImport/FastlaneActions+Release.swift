import Basics
import Foundation

/// Signing, TestFlight, versions, changelog and git actions.
extension LaneBuilder {
    mutating func match(_ call: RubyCall, _ statement: Fastfile.Statement) {
        func argument(_ key: String) -> RubyValue? { call.argument(key) ?? translator.setting(key, lane: lane) }
        var options: [DraftPair] = []
        let type = argument("type")?.text ?? "development"
        let types = ["appstore": "app-store", "adhoc": "ad-hoc", "development": "development", "enterprise": "enterprise",
                     "developer_id": "developer-id"]
        guard let mapped = types[type] else {
            skip(statement, "match type '\(type)' has no signing.sync type (app-store, ad-hoc, development, enterprise, developer-id)")
            return
        }
        options.append(DraftPair("type", .string(mapped)))
        if let identifiers = argument("app_identifier"), let list = value(.array(identifiers.list), statement: statement) {
            options.append(DraftPair("bundle-ids", list))
        } else if !translator.survey.bundleIDs.isEmpty {
            options.append(DraftPair("bundle-ids", .list(translator.survey.bundleIDs.map(DraftValue.string))))
            differ("match without app_identifier: bundle-ids are the project's app and extension targets (\(translator.survey.bundleIDs.joined(separator: ", ")))")
        } else {
            draft.requireInput("bundle-id", "The app's bundle id")
            options.append(DraftPair("bundle-ids", .list([.string("${{ inputs.bundle-id }}")])))
            differ("match without app_identifier, and no bundle id found in the project: the lane signs the bundle-id input; add the extensions' ids to bundle-ids")
        }
        if let platform = argument("platform")?.text {
            options.append(DraftPair("platform", .string(platform == "macos" ? "macos" : platform == "tvos" ? "tvos" : "ios")))
        }
        draft.requireSecret("MATCH_PASSWORD", "The passphrase of match's encrypted storage")
        options.append(DraftPair("passphrase", .string("${{ secrets.MATCH_PASSWORD }}")))
        let mode = argument("storage_mode")?.text ?? "git"
        switch mode {
        case "git":
            if let url = literal(call, "git_url", statement, settings: true) {
                options.append(DraftPair("storage", url))
            } else {
                draft.requireInput("signing-storage", "match's git_url")
                options.append(DraftPair("storage", .string("${{ inputs.signing-storage }}")))
            }
            if let branch = literal(call, "git_branch", statement, settings: true) { options.append(DraftPair("git-branch", branch)) }
            if argument("git_basic_authorization") != nil || argument("git_private_key") != nil {
                draft.requireSecret("MATCH_GIT_TOKEN", "An https access token for the match repository")
                options.append(DraftPair("git-token", .string("${{ secrets.MATCH_GIT_TOKEN }}")))
                differ("match's git_basic_authorization/git_private_key: signing.sync takes an https token (git-token)")
            }
        case "s3":
            let bucket = argument("s3_bucket")?.text ?? "BUCKET"
            let prefix = argument("s3_object_prefix")?.text.map { "/" + $0 } ?? ""
            options.append(DraftPair("storage", .string("s3://\(bucket)\(prefix)")))
            if let region = literal(call, "s3_region", statement, settings: true) { options.append(DraftPair("s3-region", region)) }
            draft.requireSecret("AWS_ACCESS_KEY_ID", "The S3 access key id")
            draft.requireSecret("AWS_SECRET_ACCESS_KEY", "The S3 secret access key")
            options.append(DraftPair("access-key-id", .string("${{ secrets.AWS_ACCESS_KEY_ID }}")))
            options.append(DraftPair("secret-access-key", .string("${{ secrets.AWS_SECRET_ACCESS_KEY }}")))
        default:
            skip(statement, "match storage_mode '\(mode)': signing.sync reads git, s3 or a directory")
            return
        }
        options.append(DraftPair("format", .string("match")))
        // Creating or renewing needs the App Store Connect key (read-only syncs do not use it).
        options += appStoreKeyOptions()
        if case .expression("is_ci")? = argument("readonly") {
            differ("match's readonly: is_ci: signing.sync is read-only by default when CI=true")
        } else if let readonly = literal(call, "readonly", statement, settings: true) {
            options.append(DraftPair("readonly", readonly))
        }
        if argument("force_for_new_devices") != nil || argument("force") != nil {
            differ("match's force/force_for_new_devices: signing.sync remakes development and ad hoc profiles when devices change")
        }
        let handled: Set<String> = ["type", "app_identifier", "platform", "storage_mode", "git_url", "git_branch", "git_basic_authorization",
                                    "git_private_key", "s3_bucket", "s3_object_prefix", "s3_region", "readonly", "force",
                                    "force_for_new_devices", "username", "team_id", "api_key", "keychain_name", "keychain_password", "verbose"]
        for pair in call.keywords where !handled.contains(pair.key) {
            skipArgument(call.name, pair.key, statement, "signing.sync has no such option")
        }
        add("signing.sync", id: "signing", options, from: statement)
    }

    mutating func pilot(_ call: RubyCall, _ statement: Fastfile.Statement) {
        var upload = appStoreKeyOptions()
        if let ipa = literal(call, "ipa", statement) {
            upload.append(DraftPair("ipa", ipa))
        } else if let export = draft.steps.last(where: { $0.kind == "xcode.export" })?.id {
            upload.append(DraftPair("ipa", .string("${{ steps.\(export).outputs.path }}")))
        } else {
            draft.requireInput("ipa", "The .ipa to upload")
            upload.append(DraftPair("ipa", .string("${{ inputs.ipa }}")))
        }
        if case .bool(true)? = call.argument("skip_waiting_for_build_processing") {
            upload.append(DraftPair("wait-for-processing", .bool(false)))
        }
        if let platform = call.argument("app_platform")?.text {
            let platforms = ["ios": "IOS", "osx": "MAC_OS", "appletvos": "TV_OS", "xros": "VISION_OS"]
            if let mapped = platforms[platform] { upload.append(DraftPair("platform", .string(mapped))) }
        }
        let uploadID = add("appstore.upload", id: "upload", upload, from: statement) ?? "upload"
        if case .bool(true)? = call.argument("skip_submission") { return }
        if case .bool(true)? = call.argument("skip_waiting_for_build_processing") {
            differ("pilot's skip_waiting_for_build_processing: the build cannot be distributed before it is processed, so no testflight.distribute step was added")
            return
        }
        let groups = call.argument("groups").flatMap { value(.array($0.list), statement: statement) }
        let changelog = call.argument("changelog")
        let wantsDistribution = groups != nil || changelog != nil || call.argument("distribute_external") != nil
        guard wantsDistribution else { return }
        var distribute = appStoreKeyOptions()
        distribute.append(DraftPair("bundle-id", bundleID(call.argument("app_identifier"), statement) ?? .string("${{ inputs.bundle-id }}")))
        if distribute.last?.value == .string("${{ inputs.bundle-id }}") { draft.requireInput("bundle-id", "The app's bundle id") }
        distribute.append(DraftPair("build-id", .string("${{ steps.\(uploadID).outputs.build-id }}")))
        if let groups { distribute.append(DraftPair("groups", groups)) }
        if let changelog {
            if case .expression(let name) = changelog, bindings[name] == .changelog,
               let step = draft.steps.last(where: { $0.kind == "changelog.update" }) {
                distribute.append(DraftPair("version", .string(versionExpression(statement))))
                distribute.append(DraftPair("changelog", step.option("path") ?? .string("CHANGELOG.md")))
            } else if let text = value(changelog, statement: statement) {
                distribute.append(DraftPair("what-to-test", .map([DraftPair("en-US", text)])))
            } else {
                skipArgument(call.name, "changelog", statement, "its value is only known when Ruby runs; set what-to-test or changelog on testflight.distribute")
            }
        }
        if let notify = literal(call, "notify_external_testers", statement) {
            distribute.append(DraftPair("notify", notify))
        }
        if case .bool(false)? = call.argument("distribute_external") {
            distribute.append(DraftPair("submit-for-review", .bool(false)))
        }
        if let encryption = literal(call, "uses_non_exempt_encryption", statement) {
            distribute.append(DraftPair("uses-non-exempt-encryption", encryption))
        }
        let handled: Set<String> = ["ipa", "skip_waiting_for_build_processing", "app_platform", "skip_submission", "groups", "changelog",
                                    "distribute_external", "notify_external_testers", "uses_non_exempt_encryption", "app_identifier",
                                    "api_key", "api_key_path", "username", "team_id", "apple_id", "itc_provider"]
        for pair in call.keywords where !handled.contains(pair.key) {
            skipArgument(call.name, pair.key, statement, "appstore.upload and testflight.distribute have no such option")
        }
        add("testflight.distribute", id: "testflight", distribute, from: statement)
    }

    /// The version being released: the version step's output, else an input.
    mutating func versionExpression(_ statement: Fastfile.Statement) -> String {
        if draft.step("version") != nil { return "${{ steps.version.outputs.version }}" }
        draft.requireInput("version", "The version being released")
        return "${{ inputs.version }}"
    }

    /// increment_build_number and increment_version_number share one version.bump step.
    mutating func increment(_ call: RubyCall, _ statement: Fastfile.Statement) {
        var step = draft.step("version") ?? DraftStep(kind: "version.bump", id: "version", options: [], origin: nil)
        let isNew = draft.step("version") == nil
        if let project = literal(call, "xcodeproj", statement) {
            step.set("xcodeproj", project)
        } else if step.option("xcodeproj") == nil, let project = translator.survey.project {
            step.set("xcodeproj", .string(project))
        }
        if call.name == "increment_build_number" {
            if let number = call.argument("build_number") ?? call.positional.first {
                guard let converted = value(number, statement: statement) else {
                    skipArgument(call.name, "build_number", statement, "its value is only known when Ruby runs")
                    return
                }
                step.set("build-number", converted.asString)
            } else {
                // fastlane runs agvtool: the project's build number plus 1. So does the lane.
                step.set("build-number", .string("increment"))
            }
            if step.option("strategy") == nil { step.set("strategy", .string("keep")) }
        } else {
            if let version = literal(call, "version_number", statement) {
                step.set("strategy", version.asString)
            } else {
                step.set("strategy", .string(call.argument("bump_type")?.text ?? "patch"))
            }
        }
        if isNew {
            let origin = "\(statement.file):\(statement.line) \(statement.text)"
            step.origin = String(origin.prefix(160))
            draft.steps.append(step)
        } else if let index = draft.steps.firstIndex(where: { $0.id == "version" }) {
            draft.steps[index] = step
        }
    }

    mutating func changelog(_ call: RubyCall, _ statement: Fastfile.Statement) {
        var options = [DraftPair("version", .string(versionExpression(statement)))]
        if let between = call.argument("between"), case .array(let items) = between, let first = items.first,
           let since = value(first, statement: statement) {
            options.append(DraftPair("since", since))
        }
        // fastlane lists every commit subject: the subjects style, with its merge filtering.
        options.append(DraftPair("style", .string("subjects")))
        let filters = ["exclude_merges": "exclude", "include_merges": "include", "only_include_merges": "only"]
        if let filter = call.argument("merge_commit_filtering")?.text, let mapped = filters[filter] {
            options.append(DraftPair("merge-commits", .string(mapped)))
        } else if case .bool(let include)? = call.argument("include_merges") {
            options.append(DraftPair("merge-commits", .string(include ? "include" : "exclude")))
        } else if call.argument("merge_commit_filtering") != nil {
            skipArgument(call.name, "merge_commit_filtering", statement, "not exclude_merges, include_merges or only_include_merges")
        }
        options.append(DraftPair("create", .bool(true)))
        for key in ["pretty", "date_format", "commits_count", "tag_match_pattern", "quiet", "path", "match_lightweight_tag"]
        where call.argument(key) != nil {
            skipArgument(call.name, key, statement, "changelog.update lists each commit's subject with its short hash; see its options")
        }
        differ("changelog_from_git_commits returns text; changelog.update writes it as a CHANGELOG.md section (style: subjects), which testflight.distribute reads as What to Test")
        add("changelog.update", id: "changelog", options, from: statement)
    }

    mutating func gitTag(_ call: RubyCall, _ statement: Fastfile.Statement) {
        var options: [DraftPair] = []
        if let tag = literal(call, "tag", statement) {
            options.append(DraftPair("name", tag))
        } else if draft.step("version") != nil, call.argument("build_number") == nil {
            let grouping = call.argument("grouping")?.text ?? "builds"
            let buildNumber = draft.step("version")?.option("build-number")
            if case .string(let number)? = buildNumber {
                options.append(DraftPair("name", .string("\(grouping)/\(lane.name)/\(call.argument("prefix")?.text ?? "")\(number)\(call.argument("postfix")?.text ?? "")")))
            } else {
                options.append(DraftPair("name", .string("${{ steps.version.outputs.tag }}")))
                differ("add_git_tag without tag: fastlane tags builds/LANE/BUILD; the lane tags the release version")
            }
        } else if let number = literal(call, "build_number", statement) {
            let grouping = call.argument("grouping")?.text ?? "builds"
            if case .string(let text) = number.asString {
                options.append(DraftPair("name", .string("\(grouping)/\(lane.name)/\(call.argument("prefix")?.text ?? "")\(text)\(call.argument("postfix")?.text ?? "")")))
            }
        } else {
            skip(statement, "add_git_tag without a tag or a build number in the lane: write git.tag's name by hand")
            return
        }
        if let message = literal(call, "message", statement) { options.append(DraftPair("message", message)) }
        for key in ["force", "sign", "commit"] where call.argument(key) != nil {
            skipArgument(call.name, key, statement, "git.tag never moves or signs a tag")
        }
        add("git.tag", id: "tag", options, from: statement)
    }

    mutating func push(_ call: RubyCall, _ statement: Fastfile.Statement) {
        var options: [DraftPair] = []
        if let remote = literal(call, "remote", statement) { options.append(DraftPair("remote", remote)) }
        let pushTags: Bool
        if case .bool(false)? = call.argument("tags") { pushTags = false } else { pushTags = true }
        if pushTags, let tag = draft.steps.last(where: { $0.kind == "git.tag" })?.id {
            options.append(DraftPair("tags", .list([.string("${{ steps.\(tag).outputs.tag }}")])))
        } else if pushTags {
            differ("push_to_git_remote pushes every local tag; git.push pushes only the tags it is given")
        }
        for key in ["force", "force_with_lease", "local_branch", "remote_branch", "no_verify", "set_upstream", "push_options"]
        where call.argument(key) != nil {
            skipArgument(call.name, key, statement, "git.push pushes the current branch to the same name and never forces")
        }
        add("git.push", options, from: statement)
    }

    mutating func commit(_ call: RubyCall, _ statement: Fastfile.Statement) {
        let message = literal(call, "message", statement) ?? .string("Version Bump")
        var options = [DraftPair("message", message)]
        if let paths = call.argument("path").flatMap({ value(.array($0.list), statement: statement) }) {
            options.append(DraftPair("paths", paths))
        } else if call.name == "commit_version_bump" {
            let sources = Set(translator.survey.shippingTargets.compactMap(\.versionSource)).sorted()
            if !sources.isEmpty { options.append(DraftPair("paths", .list(sources.map(DraftValue.string)))) }
        }
        for key in ["force", "include", "ignore", "settings", "xcodeproj", "allow_nothing_to_commit"] where call.argument(key) != nil {
            skipArgument(call.name, key, statement, "git.commit commits the paths given (or every tracked change)")
        }
        add("git.commit", options, from: statement)
    }

    /// `sh` runs in the fastlane folder; the run step in the project folder, so the command
    /// changes folder first.
    mutating func shell(_ call: RubyCall, _ statement: Fastfile.Statement) {
        var words: [String] = []
        for argument in call.positional {
            guard case .string(let text)? = value(argument, statement: statement) else {
                skip(statement, "sh with a command built by Ruby; write it as a run step by hand")
                return
            }
            words.append(text)
        }
        guard !words.isEmpty else {
            skip(statement, "sh without a command")
            return
        }
        let command = words.count == 1 ? words[0] : words.map(ShellQuoting.quote).joined(separator: " ")
        let folder = (path as NSString).deletingLastPathComponent
        add("run", [DraftPair("command", .string(folder.isEmpty ? command : "cd \(ShellQuoting.quote(folder)) && \(command)"))], from: statement)
        differ("sh runs in fastlane's folder: the run steps 'cd' there first")
    }
}

extension DraftValue {
    /// Numbers as text (build numbers and versions are strings in lanes).
    var asString: DraftValue {
        if case .int(let number) = self { return .string(String(number)) }
        return self
    }
}

