import AppleAPI
import Basics
import Foundation

/// `appstore.submit`: prepares the App Store version (build, release notes, release options)
/// and submits it for App Review.
public struct AppStoreSubmitStep: Step {
    static let notes = AppStoreNotes(option: "release-notes", field: "What's New")

    public static let description = StepDescription(
        id: "appstore.submit",
        summary: "Create or reuse the App Store version, attach the build, set release notes and options, submit for review",
        discussion: """
            Finds the App Store version for the platform (or creates it), attaches the build \
            (build-id, or build-number of the version; it must be processed), sets What's New \
            per locale (release-notes, or by default the CHANGELOG entry of the version), the \
            release type (MANUAL, AFTER_APPROVAL, or SCHEDULED with earliest-release-date) and \
            phased release, then submits through a review submission: an open one for the app \
            and platform is reused, the version added to it, and it is submitted. A version \
            already submitted with the same build is left alone, so a re-run never makes a second \
            version or submission. submit: false prepares without submitting.
            """,
        options: AppStoreConnection.specs() + [
            .required("bundle-id", .string, "The app's bundle id."),
            .required("version", .string, "The App Store version string, e.g. 1.4.0."),
            .optional("platform", .choice(["IOS", "MAC_OS", "TV_OS", "VISION_OS"]), default: .string("IOS"), "The platform."),
            .optional("build-id", .string, "The build's id (appstore.upload's build-id output)."),
            .optional("build-number", .string, "The build number of the version, when build-id is not given."),
        ] + notes.optionSpecs(summary: "What's New in This Version") + [
            .optional("release-type", .choice(AppStoreSubmission.releaseTypes), "MANUAL, AFTER_APPROVAL or SCHEDULED (left as it is when absent)."),
            .optional("earliest-release-date", .string, "For SCHEDULED: the earliest release, ISO 8601 (2025-06-01T09:00:00Z)."),
            .optional("phased-release", .bool, "Release over 7 days (true) or to everyone at once (false); left as it is when absent."),
            .optional("submit", .bool, default: .bool(true), "Submit for App Review (false: only prepare the version)."),
        ],
        outputs: [OutputSpec("version-id", "The App Store version's id."),
                  OutputSpec("review-submission-id", "The review submission's id (empty when not submitted)."),
                  OutputSpec("state", "The version's or submission's state, e.g. WAITING_FOR_REVIEW.")],
        examples: [
            AppStoreConnection.example("Submit the uploaded build, released by hand after approval, phased", """
                - appstore.submit:
                    bundle-id: com.example.app
                    version: 1.4.0
                    build-number: "42"
                    release-type: MANUAL
                    phased-release: true
                """),
        ],
        platforms: [.linux, .macOS]
    )

    let options: StepOptions
    let connection: AppStoreConnection

    public init(options: StepOptions) throws {
        connection = try AppStoreConnection(options: options)
        try AppStoreStepSupport.requireOneBuild(options, problem: "or build-number must be given, not both and not neither")
        try Self.notes.validate(options)
        let date = try options.string("earliest-release-date")
        if try options.string("release-type") == "SCHEDULED", date == nil {
            throw StepError.invalidOption(name: "earliest-release-date", problem: "is needed with release-type SCHEDULED (e.g. 2025-06-01T09:00:00Z)")
        }
        if let date, !date.contains("${{"), DateText.date(iso8601: date) == nil {
            throw StepError.invalidOption(name: "earliest-release-date", problem: "'\(date)' is not an ISO 8601 date and time (e.g. 2025-06-01T09:00:00Z)")
        }
        self.options = options
    }

    func submission(whatsNew: [String: String]) throws -> AppStoreSubmission {
        let build: BuildReference = try options.string("build-id").map { .id($0) }
            ?? .number(version: try options.requiredString("version"), buildNumber: try options.requiredString("build-number"))
        return AppStoreSubmission(
            version: try options.requiredString("version"), platform: try options.requiredString("platform"), build: build,
            whatsNew: whatsNew, releaseType: try options.string("release-type"), earliestReleaseDate: try options.string("earliest-release-date"),
            phasedRelease: try options.string("phased-release").map { _ in try options.bool("phased-release") },
            submitForReview: try options.bool("submit"))
    }

    public func plan(in context: StepContext) async throws -> [Effect] {
        // The key is checked offline (it parses, it is P-256) before anything is planned.
        try connection.key(in: context)
        let version = try options.requiredString("version")
        let submission = try submission(whatsNew: try Self.notes.texts(options, version: version, context: context))
        try submission.validate()
        let build = try options.string("build-id") ?? "\(try options.requiredString("build-number")) of \(version)"
        var effects = [
            Effect(.network, "find or create App Store version \(version) (\(submission.platform)) of \(try options.requiredString("bundle-id"))"),
            Effect(.network, "attach build \(build) unless it is attached"),
        ]
        for (locale, text) in submission.whatsNew.sorted(by: { $0.key < $1.key }) {
            effects.append(Effect(.network, "set What's New (\(locale), \(text.count) characters) when it differs"))
        }
        if let type = submission.releaseType {
            effects.append(Effect(.network, "set the release type \(type)" + (submission.earliestReleaseDate.map { " from \($0)" } ?? "")))
        }
        if let phased = submission.phasedRelease { effects.append(Effect(.network, "turn phased release \(phased ? "on" : "off")")) }
        if submission.submitForReview {
            effects.append(Effect(.network, "submit it for App Review through a review submission, unless it is already submitted"))
        }
        return effects
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        try await AppStoreStepSupport.masked(context) { context, _ in try await runMasked(in: context) }
    }

    private func runMasked(in context: StepContext) async throws -> StepOutputs {
        let key = try connection.requireKey(in: context)
        let submission = try submission(whatsNew: try Self.notes.texts(options, version: try options.requiredString("version"), context: context))
        try submission.validate()
        let client = await AppStoreConnection.client(key: key, baseURL: try connection.baseURL, context: context)
        let app = try await client.app(bundleID: try options.requiredString("bundle-id"))
        let events = context.events
        let result = try await AppStoreSubmitter(client: client) { events.log(.info, $0) }.submit(submission, app: app)
        return ["version-id": result.versionID, "review-submission-id": result.reviewSubmissionID, "state": result.state]
    }
}
