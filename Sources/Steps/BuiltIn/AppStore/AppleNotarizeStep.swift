import AppleAPI
import Basics
import Foundation
import Publish

/// `apple.notarize`: a .zip, .pkg or .dmg through Apple's Notary API (fastlane's `notarize`,
/// `xcrun notarytool submit --wait`), from Linux or macOS.
public struct AppleNotarizeStep: Step {
    public static let description = StepDescription(
        id: "apple.notarize",
        summary: "Notarize a .zip, .pkg or .dmg through Apple's Notary API and wait for the outcome",
        discussion: """
            Reads the file's SHA-256, starts a submission (POST /notary/v2/submissions) with the \
            App Store Connect API key, uploads the file in one signed PUT to the S3 bucket Apple \
            names, with the temporary credentials Apple hands out (masked like secrets), then polls \
            the status (15 s, doubling to 60 s) until Accepted, Invalid or Rejected. On Invalid or \
            Rejected it prints each issue of Apple's log (path, architecture, message) and fails. \
            Re-running finds an Accepted submission of the same file and sends nothing. Stapling \
            is the separate apple.staple step (macOS only). An app bundle must be zipped first \
            (ditto -c -k --keepParent, or the archive step).
            """,
        options: AppStoreConnection.specs(.notary) + [
            .required("file", .string, "The .zip, .pkg or .dmg to notarize."),
            .optional("submission-name", .string, "The submission's name (default: the file's name, as Apple asks)."),
            .optional("wait", .bool, default: .bool(true), "Wait for the outcome (else stop once uploaded, In Progress)."),
            .optional("timeout", .duration, default: .string("60m"), "The longest wait for the outcome."),
            .optional("poll-interval", .duration, default: .string("15s"), "The first wait between status polls (doubled up to 60 s)."),
            .optional("webhook", .string, "A URL the notary service calls when it is done."),
            .optional("reuse-accepted", .bool, default: .bool(true), "Reuse an Accepted submission of the same file instead of submitting again."),
            AppStoreConnection.notaryURLSpec,
            .optional("s3-endpoint", .string, default: .string("https://s3-accelerate.amazonaws.com"), "Where the file is uploaded (Apple's bucket is reached through S3 Transfer Acceleration)."),
            .optional("s3-region", .string, default: .string("us-west-2"), "The region the upload is signed for."),
        ],
        outputs: [OutputSpec("submission-id", "The submission's id."),
                  OutputSpec("status", "Accepted (or In Progress with wait: false)."),
                  OutputSpec("log-url", "The developer log's temporary URL (empty when not waited for).")],
        examples: [
            AppStoreConnection.example("Notarize a zipped Developer ID app", """
                - apple.notarize:
                    file: build/App.zip
                """),
        ],
        platforms: [.linux, .macOS]
    )

    let options: StepOptions
    let connection: AppStoreConnection
    let settings: Notarizer.Options

    public init(options: StepOptions) throws {
        connection = try AppStoreConnection(options: options, api: .notary)
        let file = try options.requiredString("file")
        if !file.contains("${{") {
            do { try NotaryFile.checkName(file) } catch { throw StepError.invalidOption(name: "file", problem: errorText(error)) }
        }
        var settings = Notarizer.Options()
        settings.submissionName = try options.string("submission-name")
        settings.webhook = try options.string("webhook")
        settings.wait = try options.bool("wait")
        settings.reuseAccepted = try options.bool("reuse-accepted")
        settings.timeout = try options.requiredDuration("timeout")
        settings.pollInterval = try options.requiredDuration("poll-interval")
        settings.s3Endpoint = try Self.url(options, "s3-endpoint")
        settings.s3Region = try options.requiredString("s3-region")
        if let webhook = settings.webhook, URL(string: webhook)?.scheme != "https" {
            throw StepError.invalidOption(name: "webhook", problem: "'\(webhook)' is not an https:// URL")
        }
        self.options = options
        self.settings = settings
    }

    public func plan(in context: StepContext) async throws -> [Effect] {
        // The key is checked offline (it parses, it is P-256) before anything is planned.
        try connection.key(in: context)
        let path = context.resolve(try options.requiredString("file"))
        return [Effect(.network, "notarize \(path) through the Notary API at \(try connection.baseURL.absoluteString): submit, upload to S3"
                       + (settings.wait ? ", wait for the outcome (up to \(DurationParser.format(settings.timeout)))" : ""))]
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        try await AppStoreStepSupport.masked(context) { context, masker in try await notarize(in: context, masker: masker) }
    }

    private func notarize(in context: StepContext, masker: DerivedSecretMasker) async throws -> StepOutputs {
        let file = try await NotaryFile.read(context.checkedInput(try options.requiredString("file")))
        let events = context.events, throttle = ProgressThrottle(now: context.services.now)
        let client = try await connection.client(context: context)
        let notarizer = Notarizer(notary: NotaryClient(client: client), options: settings, now: context.services.now) { progress in
            switch progress {
            case .note(let text): events.log(.info, text)
            case .secrets(let values): masker.add(values)
            case .issue(let issue): events.log(issue.severity == "warning" ? .warning : .error, issue.line)
            case let .bytes(sent, total):
                guard let shown = throttle.admit(file.name, sent: sent, total: total) else { return }
                events.progress(fraction: shown, message: "uploading \(file.name)")
            }
        }
        events.log(.info, "notarizing \(file.name) (\(file.size) bytes, SHA-256 \(file.sha256))")
        let result = try await notarizer.notarize(file)
        return ["submission-id": result.submissionID, "status": result.status.rawValue, "log-url": result.logURL ?? ""]
    }

    private static func url(_ options: StepOptions, _ name: String) throws -> URL {
        let text = try options.string(name) ?? ""
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw StepError.invalidOption(name: name, problem: "'\(text)' is not an http:// or https:// URL")
        }
        return url
    }
}
