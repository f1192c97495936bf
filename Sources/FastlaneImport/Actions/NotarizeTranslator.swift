import Basics

/// `notarize` → `apple.notarize` (id `notarize`) and, unless skip_stapling, `apple.staple`.
enum NotarizeTranslator: FastlaneActionTranslator {
    static let names = ["notarize"]
    static let documentation = docs("notarize")
    static let defaults = ["the notarized file is stapled (skip_stapling false)", "an .app is zipped before it is sent"]
    static let parameters: [FastlaneParameter] = [
        .handled("package", "apple.notarize's file (an .app is zipped with ditto first) and apple.staple's file"),
        .handled("skip_stapling", "true: no apple.staple step"),
        .handled("username", "not needed: apple.notarize signs in with the App Store Connect key"),
        .handled("asc_provider", "not needed: the App Store Connect key belongs to one team"),
        .handled("print_log", "apple.notarize prints the notary log's issues when it is refused"),
        .handled("verbose", "how much is printed"),
        .handled("api_key_path", "the App Store Connect key comes from the ASC_KEY_ID, ASC_ISSUER_ID and ASC_KEY secrets"),
        .handled("api_key", "the App Store Connect key comes from the ASC_KEY_ID, ASC_ISSUER_ID and ASC_KEY secrets"),
    ]

    static func translate(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) {
        var options = builder.appStoreKeyOptions()
        var file: DraftValue
        if let package = builder.literal(call, "package", statement) {
            file = package
        } else {
            builder.draft.requireInput("notarize-file", "The .app, .zip, .pkg or .dmg to notarize")
            file = .string("${{ inputs.notarize-file }}")
        }
        var sent = file
        if case .string(let path) = file, path.hasSuffix(".app") {
            sent = .string(path + ".zip")
            builder.add("run", [DraftPair("command", .string("ditto -c -k --keepParent \(ShellQuoting.quote(path)) \(ShellQuoting.quote(path + ".zip"))"))], from: statement)
        }
        options.append(DraftPair("file", sent))
        builder.add("apple.notarize", id: "notarize", options, from: statement)
        if case .bool(true)? = call.argument("skip_stapling") { return }
        builder.add("apple.staple", [DraftPair("file", file)], from: statement)
    }
}

/// `xcodes` → `xcode.select`.
enum XcodesTranslator: FastlaneActionTranslator {
    static let names = ["xcodes"]
    static let documentation = docs("xcodes")
    static let defaults = ["xcodes installs the Xcode when it is missing; xcode.select only picks among the installed ones"]
    static let parameters: [FastlaneParameter] = [
        .handled("version", "xcode.select's version"),
        .handled("update_list", "no effect: xcode.select looks at the installed Xcodes"),
        .handled("select_for_current_build_only", "xcode.select selects for the lane's steps only (DEVELOPER_DIR)"),
        .listed("binary_path", "xcode.select does not run xcodes; install Xcode on the machine beforehand"),
        .listed("xcodes_args", "xcode.select does not run xcodes; install Xcode on the machine beforehand"),
    ]

    static func translate(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) {
        guard call.argument("version") != nil else {
            builder.skip(statement, "xcodes without version reads .xcode-version; write an xcode.select step with that version")
            return
        }
        guard let version = builder.literal(call, "version", statement) else { return }
        builder.add("xcode.select", id: "xcode", [DraftPair("version", version)], from: statement)
        builder.differ("xcodes installs a missing Xcode; xcode.select only picks an installed one")
    }
}
