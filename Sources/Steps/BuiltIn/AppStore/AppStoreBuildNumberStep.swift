import AppleAPI
import Basics
import Foundation

/// `appstore.build-number`: the latest build number on App Store Connect, and the next one.
public struct AppStoreBuildNumberStep: Step {
    public static let description = StepDescription(
        id: "appstore.build-number",
        summary: "The latest build number on App Store Connect (for a version, or all) and the next one",
        discussion: """
            Reads every page of the app's build uploads (GET /v1/apps/{id}/buildUploads, \
            failed ones left out) and of its builds (GET /v1/builds, for builds from before the \
            Build Uploads API), and takes the highest build number: numbers need not rise with \
            the upload time. More than 100 pages of 200 is an error, never an answer from a part. \
            'next' raises its last number by one (1 when there is none): feed it to \
            version.bump's build-number.
            """,
        options: AppStoreConnection.specs() + [
            .required("bundle-id", .string, "The app's bundle id."),
            .optional("version", .string, "Only builds of this version (CFBundleShortVersionString); all by default."),
            .optional("platform", .choice(["IOS", "MAC_OS", "TV_OS", "VISION_OS"]), "Only builds of this platform."),
        ],
        outputs: [OutputSpec("latest", "The highest build number found (empty when none)."),
                  OutputSpec("next", "The next build number.")],
        examples: [
            AppStoreConnection.example("The next build number for version 1.4.0", """
                - appstore.build-number:
                    bundle-id: com.example.app
                    version: 1.4.0
                """),
        ],
        platforms: [.linux, .macOS]
    )

    let options: StepOptions
    let connection: AppStoreConnection

    public init(options: StepOptions) throws {
        connection = try AppStoreConnection(options: options)
        self.options = options
    }

    public func plan(in context: StepContext) async throws -> [Effect] {
        // The key is checked offline (it parses, it is P-256) before anything is planned.
        try connection.key(in: context)
        return [Effect(.network, "read the latest build number of \(try options.requiredString("bundle-id"))"
                + (try options.string("version").map { " version \($0)" } ?? "") + " from App Store Connect")]
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        try await AppStoreStepSupport.masked(context) { context, _ in try await runMasked(in: context) }
    }

    private func runMasked(in context: StepContext) async throws -> StepOutputs {
        let client = try await connection.client(context: context)
        let app = try await client.app(bundleID: try options.requiredString("bundle-id"))
        let numbers = try await client.buildNumbers(appID: app.id, version: try options.string("version"),
                                                    platform: try options.string("platform"))
        context.events.log(.info, "latest build number: \(numbers.latest ?? "none"); next: \(numbers.next)")
        return ["latest": numbers.latest ?? "", "next": numbers.next]
    }
}
