/// `deploygate` → `upload` with `to: deploygate`, option for option.
enum DeployGateTranslator: FastlaneActionTranslator {
    static let names = ["deploygate"]
    static let documentation = docs("deploygate")
    static let parameters: [FastlaneParameter] = [
        .handled("api_token", "token, from a secret: the variable the Fastfile reads, else DEPLOYGATE_API_TOKEN (the variable fastlane reads)"),
        .handled("user", "owner; without it, ${{ env.DEPLOYGATE_USER }} (the variable fastlane reads)"),
        .handled("ipa", "files: [the .ipa]; without ipa and apk, the lane's last xcode.export (fastlane takes gym's .ipa), else an input"),
        .handled("apk", "files: [the .apk] when no ipa is given (fastlane sends the ipa when both are)"),
        .handled("message", "message; without it, fastlane's 'No changelog provided'"),
        .maps("distribution_key", to: "distribution-key"),
        .maps("release_note", to: "release-note"),
        .maps("disable_notify", to: "disable-notify"),
        .maps("distribution_name", to: "distribution-name"),
    ]
    static let defaults = [
        "api_token and user come from DEPLOYGATE_API_TOKEN and DEPLOYGATE_USER when not given",
        "the .ipa is gym's (lane_context) when not given",
        "message is 'No changelog provided' when not given",
    ]

    static func translate(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) {
        var options = [DraftPair("to", .string("deploygate"))]
        let file = builder.binary(call, statement, keys: ["ipa", "apk"], input: "ipa", "The .ipa (or .apk) to upload")
        options.append(DraftPair("files", .list([file])))
        if call.argument("ipa") != nil, call.argument("apk") != nil {
            builder.differ("deploygate with ipa and apk: fastlane sends only the ipa; so does the lane")
        }
        if call.argument("user") == nil {
            options.append(DraftPair("owner", .string("${{ env.DEPLOYGATE_USER }}")))
        } else if let owner = builder.literal(call, "user", statement) {
            options.append(DraftPair("owner", owner))
        } else {
            builder.draft.requireInput("deploygate-owner", "The DeployGate user or organization (fastlane's user)")
            options.append(DraftPair("owner", .string("${{ inputs.deploygate-owner }}")))
        }
        options.append(DraftPair("token", builder.secret(call, "api_token", statement, name: "DEPLOYGATE_API_TOKEN", "The DeployGate API key")))
        if call.argument("message") == nil {
            options.append(DraftPair("message", .string("No changelog provided")))
        } else if let message = builder.literal(call, "message", statement) {
            options.append(DraftPair("message", message))
        }
        for parameter in parameters {
            guard case .option(let option) = parameter.mapping, call.argument(parameter.name) != nil else { continue }
            if let value = builder.literal(call, parameter.name, statement) { options.append(DraftPair(option, value)) }
        }
        builder.add("upload", id: "deploygate", options, from: LaneBuilder.redacting(["api_token"], of: call, in: statement))
    }
}
