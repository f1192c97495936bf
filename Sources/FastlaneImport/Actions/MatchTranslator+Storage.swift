import Basics

/// match's storage: git, s3, or (when a splat may set it) a required input.
extension MatchTranslator {
    /// Adds the storage options; false (listed) when signing.sync cannot read the storage.
    static func storage(_ call: RubyCall, _ statement: Fastfile.Statement, _ settings: Settings, into options: inout [DraftPair],
                        _ builder: inout LaneBuilder) -> Bool {
        let splats = call.positional.compactMap { value -> String? in
            guard case .expression(let source) = value, source.hasPrefix("*") else { return nil }
            return source
        }
        let givenMode = settings.argument("storage_mode")
        if givenMode == nil, !splats.isEmpty {
            // The splat may set storage_mode, git_url or s3_bucket: asking for a git URL would
            // be a guess. The storage is an input the user must give.
            builder.draft.requireInput("signing-storage", "match's storage, which \(splats.joined(separator: ", ")) sets in the Fastfile: a git URL, s3://BUCKET/PREFIX or a folder")
            options.append(DraftPair("storage", .string("${{ inputs.signing-storage }}")))
            builder.differ("match's storage comes from \(splats.joined(separator: ", ")), which only Ruby knows: the lane's storage is the required input signing-storage (git URL, s3://BUCKET/PREFIX or a folder); add s3-region and the access keys for S3")
            return true
        }
        let mode = givenMode?.text ?? "git"
        switch mode {
        case "git": gitStorage(call, statement, settings, into: &options, &builder)
        case "s3": s3Storage(call, statement, settings, into: &options, &builder)
        default:
            if givenMode.map({ builder.isKnown($0, statement) }) == false {
                builder.skipArgument(call.name, "storage_mode", statement, "its value (\(LaneBuilder.source(of: givenMode ?? .nil))) is only known when Ruby runs; write signing.sync's storage by hand")
            } else {
                builder.skip(statement, "match storage_mode '\(mode)': signing.sync reads git, s3 or a directory")
            }
            return false
        }
        return true
    }

    static func gitStorage(_ call: RubyCall, _ statement: Fastfile.Statement, _ settings: Settings, into options: inout [DraftPair],
                           _ builder: inout LaneBuilder) {
        if let url = builder.literal(call, "git_url", statement, settings: true) {
            options.append(DraftPair("storage", url))
        } else {
            builder.draft.requireInput("signing-storage", "match's git_url")
            options.append(DraftPair("storage", .string("${{ inputs.signing-storage }}")))
        }
        if let branch = builder.literal(call, "git_branch", statement, settings: true) { options.append(DraftPair("git-branch", branch)) }
        if ["git_basic_authorization", "git_bearer_authorization", "git_private_key"].contains(where: { settings.argument($0) != nil }) {
            builder.draft.requireSecret("MATCH_GIT_TOKEN", "An https access token for the match repository")
            options.append(DraftPair("git-token", .string("${{ secrets.MATCH_GIT_TOKEN }}")))
            builder.differ("match's git_basic_authorization/git_private_key: signing.sync takes an https token (git-token)")
        }
    }

    static func s3Storage(_ call: RubyCall, _ statement: Fastfile.Statement, _ settings: Settings, into options: inout [DraftPair],
                          _ builder: inout LaneBuilder) {
        if let bucket = builder.literal(call, "s3_bucket", statement, settings: true), case .string(let name) = bucket {
            let prefix = builder.literal(call, "s3_object_prefix", statement, settings: true).flatMap { value -> String? in
                if case .string(let text) = value { return "/" + text }
                return nil
            } ?? ""
            options.append(DraftPair("storage", .string("s3://\(name)\(prefix)")))
        } else {
            builder.draft.requireInput("signing-storage", "match's S3 storage: s3://BUCKET/PREFIX")
            options.append(DraftPair("storage", .string("${{ inputs.signing-storage }}")))
        }
        if let region = builder.literal(call, "s3_region", statement, settings: true) { options.append(DraftPair("s3-region", region)) }
        builder.draft.requireSecret("AWS_ACCESS_KEY_ID", "The S3 access key id")
        builder.draft.requireSecret("AWS_SECRET_ACCESS_KEY", "The S3 secret access key")
        options.append(DraftPair("access-key-id", .string("${{ secrets.AWS_ACCESS_KEY_ID }}")))
        options.append(DraftPair("secret-access-key", .string("${{ secrets.AWS_SECRET_ACCESS_KEY }}")))
    }
}
