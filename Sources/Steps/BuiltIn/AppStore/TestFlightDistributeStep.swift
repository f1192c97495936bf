import AppleAPI
import Basics
import Foundation

/// `testflight.distribute`: a processed build to TestFlight beta groups, with What to Test,
/// export compliance, beta app review and a tester notification.
public struct TestFlightDistributeStep: Step {
    static let notes = AppStoreNotes(option: "what-to-test", field: "What to Test")

    public static let description = StepDescription(
        id: "testflight.distribute",
        summary: "Distribute a build through TestFlight: What to Test, beta groups, beta app review, tester notification",
        discussion: """
            Finds the build (build-id, as appstore.upload outputs it, or version and \
            build-number), which must be processed (VALID). Sets export compliance when \
            uses-non-exempt-encryption is given, What to Test per locale (what-to-test, or by \
            default the CHANGELOG entry of the version), adds the build to the beta groups named \
            in groups (exact names; an unknown one fails before anything changes, listing the \
            app's groups), submits it for beta app review when an external group is among them \
            and it was never submitted, and with notify tells the testers. Everything is looked up \
            before it is changed, so running it again adds nothing twice. The notification is \
            recorded as owed in the run journal before the build is added to a group, and \
            cleared when Apple accepts it: --resume after an interruption sends it even though \
            the build is already in every group, while a plain re-run does not notify again. A \
            notification is never retried blindly (a repeat would notify twice).
            """,
        options: AppStoreConnection.specs() + [
            .required("bundle-id", .string, "The app's bundle id."),
            .optional("build-id", .string, "The build's id (appstore.upload's build-id output)."),
            .optional("version", .string, "The build's version (CFBundleShortVersionString): with build-number, and for the changelog."),
            .optional("build-number", .string, "The build number (CFBundleVersion), when build-id is not given."),
            .optional("groups", .list(.string), "Beta group names (internal or external), matched exactly."),
        ] + notes.optionSpecs(summary: "What to Test") + [
            .optional("uses-non-exempt-encryption", .bool, "The export-compliance answer for the build (left as it is when absent)."),
            .optional("submit-for-review", .bool, default: .bool(true), "Submit for beta app review when an external group is among groups."),
            .optional("notify", .bool, default: .bool(false),
                      "Notify the testers when the build was added to a group (or --resume finds the notification owed)."),
        ],
        outputs: [OutputSpec("build-id", "The build's id."),
                  OutputSpec("groups-added", "The groups this run added the build to, comma-separated."),
                  OutputSpec("beta-review", "submitted, not needed, or the state of an earlier submission."),
                  OutputSpec("notification", "sent, sent (owed by the resumed run), not sent again, or not requested.")],
        examples: [
            AppStoreConnection.example("Testers in two groups, What to Test from CHANGELOG.md", """
                - testflight.distribute:
                    bundle-id: com.example.app
                    version: 1.4.0
                    build-number: "42"
                    groups: [QA, Public Beta]
                    uses-non-exempt-encryption: false
                    notify: true
                """),
        ],
        platforms: [.linux, .macOS]
    )

    let options: StepOptions
    let connection: AppStoreConnection
    /// The run journal's key for a tester notification promised and not yet accepted.
    static let owedNotification = "testflight.notification"

    public init(options: StepOptions) throws {
        connection = try AppStoreConnection(options: options)
        try AppStoreStepSupport.requireOneBuild(options, problem: "or build-number (with version) must be given, not both and not neither")
        try Self.notes.validate(options)
        self.options = options
    }

    var reference: BuildReference {
        get throws {
            if let id = try options.string("build-id") { return .id(id) }
            return .number(version: try options.string("version"), buildNumber: try options.requiredString("build-number"))
        }
    }

    public func plan(in context: StepContext) async throws -> [Effect] {
        // The key is checked offline (it parses, it is P-256) before anything is planned.
        try connection.key(in: context)
        let bundleID = try options.requiredString("bundle-id")
        let build = try options.string("build-id").map { "build \($0)" }
            ?? "build \(try options.requiredString("build-number"))" + (try options.string("version").map { " of \($0)" } ?? "")
        var effects = [Effect(.network, "find \(build) of \(bundleID) on App Store Connect (it must be processed)")]
        if let compliance = try options.string("uses-non-exempt-encryption") {
            effects.append(Effect(.network, "set usesNonExemptEncryption = \(compliance) when it differs"))
        }
        if let version = try options.string("version") {
            let texts = try Self.notes.texts(options, version: version, context: context)
            for (locale, text) in texts.sorted(by: { $0.key < $1.key }) {
                effects.append(Effect(.network, "set What to Test (\(locale), \(text.count) characters) when it differs"))
            }
        } else {
            effects.append(Effect(.network, "set What to Test " + (try Self.notes.source(options)) + " when it differs"))
        }
        let groups = try options.strings("groups")
        if !groups.isEmpty {
            effects.append(Effect(.network, "add the build to the beta groups " + groups.map { "'\($0)'" }.joined(separator: ", ")
                                  + " it is not in yet (unknown names fail before any change)"))
            if try options.bool("submit-for-review") {
                effects.append(Effect(.network, "submit it for beta app review if one of them is external and it was never submitted"))
            }
        }
        if try options.bool("notify") { effects.append(Effect(.network, "notify the testers if the build was added to a group or --resume finds the notification owed")) }
        return effects
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        try await AppStoreStepSupport.masked(context) { context, _ in try await runMasked(in: context) }
    }

    private func runMasked(in context: StepContext) async throws -> StepOutputs {
        let client = try await connection.client(context: context)
        let reference = try self.reference
        // The texts are read (and checked) before anything is sent, unless the version must be asked for.
        var whatToTest = try options.string("version").map { try Self.notes.texts(options, version: $0, context: context) }
        let app = try await client.app(bundleID: try options.requiredString("bundle-id"))
        if whatToTest == nil {
            var version: String?
            if try options.stringMap("what-to-test").isEmpty, case .id(let id) = reference { version = try await client.version(ofBuild: id) }
            whatToTest = try Self.notes.texts(options, version: version, context: context)
        }
        let distribution = TestFlightDistribution(
            build: reference, groups: try options.strings("groups"),
            whatToTest: whatToTest ?? [:],
            usesNonExemptEncryption: try options.string("uses-non-exempt-encryption").map { _ in try options.bool("uses-non-exempt-encryption") },
            submitForBetaReview: try options.bool("submit-for-review"), notifyTesters: try options.bool("notify"),
            notificationOwed: context.ledger.owedByEarlierRun[Self.owedNotification] != nil)
        let events = context.events, ledger = context.ledger
        let distributor = TestFlightDistributor(client: client, log: { events.log(.info, $0) }) { owed in
            try ledger.record(Self.owedNotification, owed ? "notification promised, not yet accepted" : nil)
        }
        let result = try await distributor.distribute(distribution, app: app)
        return ["build-id": result.buildID, "groups-added": result.groupsAdded.joined(separator: ","), "beta-review": result.betaReview,
                "notification": result.notification.rawValue]
    }
}
