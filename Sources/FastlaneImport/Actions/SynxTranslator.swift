/// `synx` (the fastlane-plugin-synx action) → `sync` in synx's layout, with synx's options.
enum SynxTranslator: FastlaneActionTranslator {
    static let names = ["synx"]
    static let documentation = "https://github.com/afonsograca/fastlane-plugin-synx"
    static let parameters: [FastlaneParameter] = [
        .handled("xcodeproj", "project; without it, the project in the project folder (synx takes the first *.xcodeproj there)"),
        .maps("prune", to: "prune"),
        .handled("no_color", "output only: Slipway follows NO_COLOR and --no-color"),
        .handled("no_default_exclusions", "default-exclusions: false"),
        .handled("no_sort_by_name", "sort-by-name: false"),
        .handled("quiet", "output only: the step logs its moves; 'slipway run --quiet' prints only errors"),
        .handled("exclusion", "exclude, a list (synx takes one group or several)"),
    ]
    static let defaults = [
        "synx names every folder after its group's display name and gives every group a folder (the lane writes folders-from: names)",
        "synx sorts groups by name and leaves /Libraries, /Frameworks and /Products alone",
    ]

    static func translate(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) {
        var options: [DraftPair] = []
        if call.argument("xcodeproj") != nil {
            if let project = builder.literal(call, "xcodeproj", statement) { options.append(DraftPair("project", project)) }
        } else if let project = builder.translator.survey.project, !project.contains("/") {
            options.append(DraftPair("project", .string(project)))
        }
        if !options.contains(where: { $0.key == "project" }) {
            builder.draft.requireInput("sync-project", "The .xcodeproj whose folders follow its groups (synx took the first *.xcodeproj in the project folder)")
            options.append(DraftPair("project", .string("${{ inputs.sync-project }}")))
        }
        options.append(DraftPair("folders-from", .string("names")))
        if builder.flag(call, "prune", statement, default: false) { options.append(DraftPair("prune", .bool(true))) }
        if call.argument("exclusion") != nil, let excluded = builder.literal(call, "exclusion", statement) {
            if case .list = excluded { options.append(DraftPair("exclude", excluded)) } else { options.append(DraftPair("exclude", .list([excluded]))) }
        }
        if builder.flag(call, "no_sort_by_name", statement, default: false) { options.append(DraftPair("sort-by-name", .bool(false))) }
        if builder.flag(call, "no_default_exclusions", statement, default: false) {
            options.append(DraftPair("default-exclusions", .bool(false)))
        } else {
            builder.differ("synx's default exclusions are /Libraries, /Frameworks and /Products; sync's also leave /Pods alone (default-exclusions: false syncs them all)")
        }
        _ = builder.flag(call, "no_color", statement, default: false)
        _ = builder.flag(call, "quiet", statement, default: false)
        builder.differ("synx: the lane keeps synx's layout (folders-from: names: every folder named after its group); "
                       + "without it sync keeps the folders Xcode's groups point at and moves fewer files (docs/sync.md)")
        builder.differ("synx: sync refuses to run on uncommitted changes, which synx did not check (allow-dirty: true runs anyway); "
                       + "it moves files as one transaction and stages them as renames")
        builder.add("sync", options, from: statement)
    }
}
