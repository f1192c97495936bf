import Basics
import Foundation
import Publish

/// The upload step's tester-distribution destinations: DeployGate and Firebase App Distribution.
extension UploadOptions {
    static let distributionSpecs: [OptionSpec] = [
        .optional("owner", .string, "deploygate: the user or organization that owns the app."),
        .optional("message", .string, "deploygate: a description of this build."),
        .optional("distribution-key", .string, "deploygate: the distribution page to update (the xxxx of /distributions/xxxx)."),
        .optional("distribution-name", .string, "deploygate: the distribution page to update or create, by name."),
        .optional("release-note", .string, "deploygate: the message shown on the distribution page."),
        .optional("disable-notify", .bool, default: .bool(false), "deploygate: send no notification e-mails (iOS)."),
        .optional("deploygate-url", .string, default: .string(DeployGateClient.defaultBaseURL),
                  "deploygate: DeployGate's base URL (a proxy, or a test server)."),
        .optional("app-id", .string, "firebase: the Firebase app id, 1:<project number>:ios:<hex> (Project settings → Your apps)."),
        .optional("service-account", .string,
                  "firebase: a service account's JSON key, its text or its path (from a secret; never printed)."),
        .optional("notes-file", .string, "firebase: a file holding the release notes (instead of notes)."),
        .optional("testers", .list(.string), "firebase: testers' e-mail addresses to give the release to."),
        .optional("groups", .list(.string), "firebase: tester group aliases to give the release to."),
        .optional("firebase-url", .string, default: .string(FirebaseDistributionClient.defaultBaseURL),
                  "firebase: the API's base URL (a proxy, or a test server)."),
        .optional("poll-interval", .duration, default: .string("5s"), "firebase: the wait between two checks of the upload's processing."),
        .optional("processing-timeout", .duration, default: .string("10m"), "firebase: how long to wait for the processing in all."),
    ]

    /// DeployGate's settings: base URL, API key, the upload's fields.
    func deployGate() throws -> (baseURL: String, token: String, upload: DeployGateUpload) {
        let owner = try required("owner")
        guard !owner.contains("/"), owner.trimmingCharacters(in: .whitespaces) == owner else {
            throw StepError.invalidOption(name: "owner", problem: "'\(owner)' is not a DeployGate user or organization name")
        }
        let token = try required("token")
        let baseURL = try values.requiredString("deploygate-url")
        _ = try url("deploygate-url", baseURL)
        let upload = DeployGateUpload(owner: owner, message: try values.string("message"),
                                      distributionKey: try values.string("distribution-key"),
                                      distributionName: try values.string("distribution-name"),
                                      releaseNote: try values.string("release-note"), disableNotify: try values.bool("disable-notify"))
        return (baseURL, token, upload)
    }

    /// Firebase's settings, except what needs the working directory (the key and notes files).
    func firebase() throws -> (baseURL: String, app: FirebaseAppID, serviceAccount: String, settings: FirebaseDistributionSettings) {
        let text = try required("app-id")
        guard let app = FirebaseAppID(text) else {
            throw StepError.invalidOption(name: "app-id", problem: "'\(text)' is not a Firebase app id. Copy it from the Firebase console "
                                          + "(Project settings → Your apps → App ID); it looks like 1:1234567890:ios:0a1b2c3d4e5f6789")
        }
        let serviceAccount = try required("service-account")
        let baseURL = try values.requiredString("firebase-url")
        _ = try url("firebase-url", baseURL)
        if try values.string("notes") != nil, try values.string("notes-file") != nil {
            throw StepError.invalidOption(name: "notes-file", problem: "and 'notes' are both set. Keep one of them")
        }
        let testers = try values.strings("testers")
        for tester in testers where !Self.looksLikeEmail(tester) {
            throw StepError.invalidOption(name: "testers", problem: "'\(tester)' is not an e-mail address")
        }
        let interval = try values.requiredDuration("poll-interval")
        guard interval > .zero else { throw StepError.invalidOption(name: "poll-interval", problem: "must be longer than 0s") }
        let settings = FirebaseDistributionSettings(releaseNotes: try values.string("notes"), testers: testers,
                                                    groups: try values.strings("groups"), pollInterval: interval,
                                                    timeout: try values.requiredDuration("processing-timeout"))
        return (baseURL, app, serviceAccount, settings)
    }

    private static func looksLikeEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !text.contains(where: \.isWhitespace)
    }
}
