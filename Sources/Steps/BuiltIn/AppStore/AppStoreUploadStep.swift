import AppleAPI
import Basics
import Foundation

/// `appstore.upload`: an .ipa or .pkg to App Store Connect through the Build Uploads API.
public struct AppStoreUploadStep: Step {
    public static let description = StepDescription(
        id: "appstore.upload",
        summary: "Upload an .ipa or .pkg to App Store Connect (Build Uploads API), then wait for processing",
        discussion: """
            The bundle id, version and build number are read from the archive's Info.plist \
            (XML or binary; options override them, and a .pkg needs them). The app is found by \
            its bundle id, the upload reserved, each part sent as Apple's upload operations say \
            (4 at a time, retried on 5xx and dropped connections), committed with the file's \
            SHA-256, then the build's processing is awaited until VALID (wait-for-processing). \
            Re-running resumes an upload of the same version and build number or recognises it \
            as done: nothing is sent twice. The key's text comes from a secret and is masked.
            """,
        options: AppStoreConnection.specs() + [
            .required("ipa", .string, "The .ipa (or .pkg) to upload."),
            .optional("wait-for-processing", .bool, default: .bool(true), "Wait until Apple has processed the build (VALID)."),
            .optional("timeout", .duration, default: .string("60m"), "The longest wait for the upload and processing."),
            .optional("poll-interval", .duration, default: .string("10s"), "The first wait between status polls (doubled up to 60 s)."),
            .optional("bundle-id", .string, "Use this bundle id instead of the Info.plist's."),
            .optional("version", .string, "Use this version instead of CFBundleShortVersionString."),
            .optional("build-number", .string, "Use this build number instead of CFBundleVersion."),
            .optional("platform", .choice(["IOS", "MAC_OS", "TV_OS", "VISION_OS"]), "The platform (from the archive by default)."),
        ],
        outputs: [OutputSpec("build-id", "The build's id on App Store Connect (never empty: the step fails when no build turns up)."),
                  OutputSpec("build-upload-id", "The build upload's id."),
                  OutputSpec("build-number", "The build number uploaded."),
                  OutputSpec("version", "The version uploaded.")],
        examples: [
            AppStoreConnection.example("Upload the exported .ipa and wait for processing", """
                - appstore.upload:
                    ipa: build/export/Example.ipa
                """),
        ],
        platforms: [.linux, .macOS]
    )

    let options: StepOptions
    let connection: AppStoreConnection

    public init(options: StepOptions) throws {
        connection = try AppStoreConnection(options: options)
        _ = try options.duration("timeout")
        _ = try options.duration("poll-interval")
        self.options = options
    }

    public func plan(in context: StepContext) async throws -> [Effect] {
        let path = context.resolve(try options.requiredString("ipa"))
        // The key is checked offline (it parses, it is P-256) before anything is planned.
        try connection.key(in: context)
        if let earlier = DryRunPlaceholder.reference(in: path) {
            // A dry run: the file is made by an earlier step, which has not run.
            return [Effect(.network, "upload the file \(earlier) names, once that step has made it (its bundle id, version and "
                           + "build number are read from it then), to App Store Connect at \(try connection.baseURL.absoluteString)"
                           + (try options.bool("wait-for-processing") ? ", then wait for processing" : ""))]
        }
        let info = try readInfo(try context.checkedInput(path))
        return [Effect(.network, "upload \(path) (\(info.bundleID) \(info.version) build \(info.buildNumber), \(info.fileSize) bytes) "
                       + "to App Store Connect at \(try connection.baseURL.absoluteString)"
                       + (try options.bool("wait-for-processing") ? ", then wait for processing" : ""))]
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        try await AppStoreStepSupport.masked(context) { context, _ in try await runMasked(in: context) }
    }

    private func runMasked(in context: StepContext) async throws -> StepOutputs {
        let info = try readInfo(context.checkedInput(try options.requiredString("ipa")))
        let client = try await connection.client(context: context)
        let app = try await client.app(bundleID: info.bundleID)
        context.events.log(.info, "uploading \(info.fileName) (\(info.version) build \(info.buildNumber)) to '\(app.name)' (app id \(app.id))")
        var settings = BuildUploader.Options()
        settings.waitForProcessing = try options.bool("wait-for-processing")
        settings.timeout = try options.requiredDuration("timeout")
        settings.pollInterval = try options.requiredDuration("poll-interval")
        let events = context.events, throttle = ProgressThrottle(now: context.services.now)
        let uploader = BuildUploader(client: client, options: settings, now: context.services.now) { progress in
            switch progress {
            case .note(let text): events.log(.info, text)
            case let .bytes(sent, total):
                guard let shown = throttle.admit(info.fileName, sent: sent, total: total) else { return }
                events.progress(fraction: shown, message: "uploading \(info.fileName)")
            }
        }
        let result = try await uploader.upload(info, appID: app.id)
        context.events.log(.info, result.alreadyUploaded
            ? "App Store Connect already had \(info.version) build \(info.buildNumber); nothing was sent"
            : "uploaded \(info.fileName) in \(result.partsSent) part\(result.partsSent == 1 ? "" : "s")")
        guard let buildID = result.buildID, !buildID.isEmpty else {  // the uploader throws first; never output ''
            throw BuildUploadError.buildNotFound(uploadID: result.buildUploadID, version: info.version, buildNumber: info.buildNumber,
                                                 seconds: Int(settings.timeout.components.seconds))
        }
        return ["build-id": buildID, "build-upload-id": result.buildUploadID, "build-number": info.buildNumber,
                "version": info.version]
    }

    private func readInfo(_ path: String) throws -> IPAInfo {
        try IPAInfo.read(path: path, overrides: .init(bundleID: try options.string("bundle-id"), version: try options.string("version"),
                                                      buildNumber: try options.string("build-number"),
                                                      platform: try options.string("platform")))
    }
}
