import Basics
import Foundation
import Publish
import Transport

/// The upload step's runs for the tester-distribution services, which answer with more than a
/// URL (a revision, a release) and take one binary each.
extension UploadStep {
    /// Uploads the one binary `files` names to DeployGate or Firebase. Credentials and what is
    /// derived from them (the service account's key, its JWTs and access tokens) are masked in
    /// every event and error, whether or not the lane declared them as secrets.
    func runDistribution(in context: StepContext, file: UploadFile, streams: LocalFileStreams) async throws -> StepOutputs {
        let masker = DerivedSecretMasker(forwardingTo: context.events)
        let events: any StepEventSink = masker
        let attempts = options.attempts
        let http = RetryingHTTPClient(client: context.services.httpClient, policy: context.services.retryPolicy(attempts)) { attempt, reason, wait in
            events.log(.warning, "attempt \(attempt) of \(attempts) failed: \(reason); retrying in \(DurationParser.format(wait))")
        }
        let reporter = PublishStepSupport.progressReporter(events, verb: "uploading", now: context.services.now)
        let progress: HTTPProgressHandler = { reporter(file, $0) }
        do {
            switch options.backend {
            case .deploygate:
                let settings = try options.deployGate()
                masker.add([settings.token])
                let client = DeployGateClient(baseURL: settings.baseURL, token: settings.token, http: http,
                                              fileSystem: context.fileSystem, streams: streams)
                let revision = try await client.upload(file, settings.upload, progress: progress)
                events.log(.info, "\(file.name): DeployGate revision \(revision.revision) of \(revision.name) → \(revision.url)")
                return masker.redact(["urls": revision.url, "revision": String(revision.revision), "url": revision.url,
                                      "download-url": revision.downloadURL ?? ""])
            default:
                return try await runFirebase(in: context, file: file, http: http, masker: masker, progress: progress)
            }
        } catch {
            throw masker.redact(error)
        }
    }

    private func runFirebase(in context: StepContext, file: UploadFile, http: RetryingHTTPClient, masker: DerivedSecretMasker,
                             progress: HTTPProgressHandler?) async throws -> StepOutputs {
        var firebase = try options.firebase()
        masker.add([firebase.serviceAccount])
        let account = try loadServiceAccount(firebase.serviceAccount, in: context)
        masker.add(account.secrets)
        if let notesFile = try options.values.string("notes-file") {
            let path = context.resolve(notesFile)
            guard let data = try? context.fileSystem.read(path) else {
                throw StepError.invalidOption(name: "notes-file", problem: "'\(notesFile)' cannot be read. Check the path (relative to the working directory)")
            }
            firebase.settings.releaseNotes = String(decoding: data, as: UTF8.self)
        }
        let tokens = GoogleAccessTokens(account: account, http: http, now: context.services.now) { masker.add([$0]) }
        let client = FirebaseDistributionClient(baseURL: firebase.baseURL, app: firebase.app, tokens: tokens, http: http)
        let events: any StepEventSink = masker
        let distributor = FirebaseDistributor(client: client, settings: firebase.settings, sleep: context.services.sleep) { events.log(.info, $0) }
        let outcome = try await distributor.distribute(file, progress: progress)
        let release = outcome.release
        return masker.redact(["urls": release.testingURI ?? release.name, "release": release.name, "result": outcome.result,
                              "display-version": release.displayVersion, "build-version": release.buildVersion,
                              "console-url": release.consoleURI ?? "", "testing-url": release.testingURI ?? ""])
    }

    /// The service account from the option's value: JSON text when it starts with `{`, else a
    /// path (relative to the working directory).
    /// - Throws: `StepError.invalidOption` when the file cannot be read, `PublishError.malformedServiceAccount`.
    func loadServiceAccount(_ value: String, in context: StepContext) throws -> GoogleServiceAccount {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("{") {
            return try GoogleServiceAccount(json: Array(trimmed.utf8), source: "given in 'service-account'")
        }
        let path = context.resolve(trimmed)
        guard !trimmed.contains("\n"), let data = try? context.fileSystem.read(path) else {
            throw StepError.invalidOption(name: "service-account", problem: "is neither a JSON key (it does not start with '{') nor the path "
                                          + "of a readable file. Set it to the key's JSON text or its path, from a secret")
        }
        return try GoogleServiceAccount(json: Array(data), source: "in '\(trimmed)'")
    }
}
