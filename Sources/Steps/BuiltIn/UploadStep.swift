import Basics
import Foundation
import Publish
import Transport

/// `upload`: release files to a folder, an S3 bucket, a GitHub release or an HTTP endpoint, or a
/// build to testers through DeployGate or Firebase App Distribution.
public struct UploadStep: Step {
    public static let description = StepDescription(
        id: "upload",
        summary: "Upload release files (a folder, S3, a GitHub release, HTTP) or a build to testers (DeployGate, Firebase)",
        discussion: """
            Each file keeps its name at the destination. Requests are retried with exponential \
            backoff and jitter on 5xx answers and dropped connections, never on 4xx; progress is \
            reported for large files. Re-running after a partial failure does not duplicate \
            anything: identical files already at the destination are skipped, and a different \
            file with the same name is an error unless overwrite (replace, for GitHub) is true; \
            these checks happen before the first byte is sent.

            to: directory (the default) copies into 'directory'. to: s3 uploads to any \
            S3-compatible bucket (SigV4; files from multipart-threshold up go in parts of \
            part-size, 'concurrency' at a time); credentials come from secrets:
              - upload: { to: s3, files: ["dist/*"], bucket: releases, prefix: v1.2.0,
                          access-key-id: "${{ secrets.AWS_ACCESS_KEY_ID }}",
                          secret-access-key: "${{ secrets.AWS_SECRET_ACCESS_KEY }}" }
            to: github-release reuses or creates the release for 'tag' and uploads its assets:
              - upload: { to: github-release, files: ["dist/*"], repository: owner/app,
                          tag: v1.2.0, token: "${{ secrets.GITHUB_TOKEN }}" }
            to: http PUTs each file to 'url' ({name} is replaced by the file's name), or POSTs \
            it as multipart/form-data with method: post.

            to: deploygate and to: firebase send one build (.ipa, .apk, .aab) to testers. \
            DeployGate takes the API key in 'token' and the user or organization in 'owner':
              - upload: { to: deploygate, files: [build/App.ipa], owner: my-team,
                          token: "${{ secrets.DEPLOYGATE_API_KEY }}", message: "Build 42" }
            Firebase App Distribution takes a service account's JSON key (its text or its path) \
            in 'service-account', signs an RS256 token request with it, uploads, waits for \
            Firebase to process the build (poll-interval, processing-timeout), sets the notes and \
            gives the release to 'testers' and 'groups':
              - upload: { to: firebase, files: [build/App.ipa], app-id: "1:1234567890:ios:0a1b2c3d4e5f6789",
                          service-account: "${{ secrets.FIREBASE_SERVICE_ACCOUNT }}", groups: [qa] }
            Keys, tokens and the service account's private key never appear in the output.
            """,
        options: UploadOptions.specs,
        outputs: [
            OutputSpec("urls", "Where the files are now, one URL per line (deploygate: the app's page; firebase: the testers' link)."),
            OutputSpec("revision", "deploygate: the revision number DeployGate gave the build."),
            OutputSpec("url", "deploygate: the app's page on DeployGate."),
            OutputSpec("download-url", "deploygate: where the build can be downloaded."),
            OutputSpec("release", "firebase: the release's resource name (projects/…/apps/…/releases/…)."),
            OutputSpec("result", "firebase: RELEASE_CREATED, RELEASE_UPDATED or RELEASE_UNMODIFIED (the same build was there)."),
            OutputSpec("display-version", "firebase: the release's version."),
            OutputSpec("build-version", "firebase: the release's build number."),
            OutputSpec("console-url", "firebase: the release in the Firebase console."),
            OutputSpec("testing-url", "firebase: the link testers open."),
        ],
        examples: [
            StepExample("Copy into a local folder (no account needed)", "- upload: { files: [\"dist/*\"] }"),
            StepExample("A shared folder, replacing changed files", """
                - upload: { to: directory, files: ["dist/*.tar.gz", dist/SHA256SUMS], directory: /srv/releases/slipway, overwrite: true }
                """),
            StepExample("PUT to an artifact server", """
                - upload: { to: http, files: ["dist/*.zip"], url: "https://artifacts.example.com/slipway/{name}" }
                """),
        ]
    )

    let options: UploadOptions

    public init(options: StepOptions) throws {
        self.options = try UploadOptions(options)
    }

    public func plan(in context: StepContext) throws -> [Effect] {
        let rule: String
        switch options.backend {
        case .githubRelease: rule = options.replace ? "replacing assets of the same name" : "skipping assets already there"
        case .deploygate: rule = "a new revision"
        case .firebase: rule = "the same build again is left unmodified"
        default: rule = options.overwrite ? "replacing changed files" : "skipping identical files"
        }
        return [Effect(options.backend == .directory ? .write : .network,
                       "upload \(options.files.joined(separator: ", ")) to \(options.destinationSummary(context)) (\(rule))")]
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        let streams = LocalFileStreams()
        let matches = try PublishStepSupport.files(options.files, in: context)
        var files: [UploadFile] = []
        var byName: [String: String] = [:]
        for match in matches {
            if let other = byName.updateValue(match.relative, forKey: match.name) {
                throw StepError.invalidOption(name: "files", problem: "matched '\(other)' and '\(match.relative)', which would both be uploaded as '\(match.name)'; "
                                              + "files are uploaded under their own names. Narrow the patterns, or upload them in two steps")
            }
            files.append(UploadFile(path: match.path, name: match.name, size: try streams.info(match.path).size))
        }
        if options.backend == .deploygate || options.backend == .firebase {
            guard files.count == 1, let file = files.first else {
                throw StepError.invalidOption(name: "files", problem: "matched \(files.count) files (\(files.map(\.name).joined(separator: ", "))); "
                                              + "to: \(options.backend.rawValue) takes one build. Name one file")
            }
            return try await runDistribution(in: context, file: file, streams: streams)
        }
        let uploader = try makeUploader(context, streams: streams)
        let outcomes = try await uploader.upload(files, progress: PublishStepSupport.progressReporter(context.events, verb: "uploading",
                                                                                                     now: context.services.now))
        for outcome in outcomes {
            let verb = outcome.action == .skipped ? "already there, skipped" : outcome.action.rawValue
            context.events.log(.info, "\(outcome.file.name): \(verb) → \(outcome.url)")
        }
        return ["urls": outcomes.map(\.url).joined(separator: "\n")]
    }

    private func makeUploader(_ context: StepContext, streams: LocalFileStreams) throws -> any Uploader {
        let events = context.events
        let attempts = options.attempts
        let http = RetryingHTTPClient(client: context.services.httpClient, policy: context.services.retryPolicy(attempts)) { attempt, reason, wait in
            events.log(.warning, "attempt \(attempt) of \(attempts) failed: \(reason); retrying in \(DurationParser.format(wait))")
        }
        switch options.backend {
        case .directory:
            return DirectoryUploader(directory: context.resolve(options.directory), overwrite: options.overwrite,
                                     fileSystem: context.fileSystem, streams: streams)
        case .s3:
            let s3 = try options.s3()
            let client = S3Client(location: s3.location, credentials: s3.credentials, http: http, now: context.services.now)
            return S3Uploader(client: client, settings: s3.settings, streams: streams)
        case .githubRelease:
            let github = try options.github()
            let client = GitHubReleaseClient(apiURL: github.apiURL, uploadURL: github.uploadURL, repository: github.repository,
                                             token: github.token, http: http)
            return GitHubReleaseUploader(client: client, release: github.release, replace: options.replace)
        case .deploygate, .firebase:
            throw StepError.failed("to: \(options.backend.rawValue) uploads through runDistribution, not an Uploader")
        case .http:
            let endpoint = try options.http()
            return HTTPUploader(url: endpoint.url, method: endpoint.method, field: endpoint.field, headers: endpoint.headers,
                                http: http, fileSystem: context.fileSystem, streams: streams)
        }
    }
}
