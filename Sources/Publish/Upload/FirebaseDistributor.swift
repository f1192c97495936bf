import Basics
import Foundation

/// What to do with a binary on Firebase App Distribution besides uploading it.
public struct FirebaseDistributionSettings: Sendable, Hashable {
    /// Release notes to set (nil or empty: leave them).
    public var releaseNotes: String?
    /// Testers' e-mail addresses to give access.
    public var testers: [String]
    /// Tester group aliases to give access.
    public var groups: [String]
    /// The wait between two polls of the upload's operation.
    public var pollInterval: Duration
    /// How long to wait for the operation in all.
    public var timeout: Duration

    /// Creates settings.
    public init(releaseNotes: String? = nil, testers: [String] = [], groups: [String] = [],
                pollInterval: Duration = .seconds(5), timeout: Duration = .seconds(600)) {
        self.releaseNotes = releaseNotes
        self.testers = testers
        self.groups = groups
        self.pollInterval = pollInterval
        self.timeout = timeout
    }
}

/// The release a distribution made or found.
public struct FirebaseDistributionOutcome: Sendable, Hashable {
    /// The release.
    public var release: FirebaseRelease
    /// `RELEASE_CREATED`, `RELEASE_UPDATED` or `RELEASE_UNMODIFIED` (the same binary was there).
    public var result: String
}

/// Uploads a binary to Firebase App Distribution and waits for its release: `releases:upload`,
/// then the operation polled (waits through the injected `sleep`, so tests do not wait) until
/// it is done or `timeout` of waiting has passed, then the release notes, then `:distribute`.
/// Re-uploading the same binary is harmless: Firebase answers `RELEASE_UNMODIFIED`.
public struct FirebaseDistributor: Sendable {
    private let client: FirebaseDistributionClient
    private let settings: FirebaseDistributionSettings
    private let sleep: @Sendable (Duration) async throws -> Void
    private let log: @Sendable (String) -> Void

    /// A distributor; `log` receives one line per stage.
    public init(client: FirebaseDistributionClient, settings: FirebaseDistributionSettings,
                sleep: @escaping @Sendable (Duration) async throws -> Void, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.client = client
        self.settings = settings
        self.sleep = sleep
        self.log = log
    }

    /// Uploads `file`, waits, sets the notes and distributes.
    /// - Throws: the client's errors, `PublishError.operationFailed` (Firebase could not process
    ///   the binary), `.operationTimedOut` naming the last state seen.
    public func distribute(_ file: UploadFile, progress: HTTPProgressHandler?) async throws -> FirebaseDistributionOutcome {
        let operation = try await client.upload(file, progress: progress)
        log("\(file.name): uploaded; waiting for Firebase to process it (operation \(operation))")
        let (release, result) = try await wait(for: operation, file: file)
        log("\(file.name): \(result) \(release.name) (version \(release.displayVersion), build \(release.buildVersion))")
        if let notes = settings.releaseNotes, !notes.isEmpty {
            try await client.setReleaseNotes(release.name, notes)
            log("release notes set (\(notes.utf8.count) bytes)")
        }
        if !settings.testers.isEmpty || !settings.groups.isEmpty {
            try await client.distribute(release.name, testers: settings.testers, groups: settings.groups)
            log("distributed to \(Self.describe(testers: settings.testers, groups: settings.groups))")
        }
        return FirebaseDistributionOutcome(release: release, result: result)
    }

    private func wait(for operation: String, file: UploadFile) async throws -> (FirebaseRelease, String) {
        var waited: Duration = .zero
        while true {
            switch try await client.operation(operation) {
            case .done(let release, let result):
                return (release, result)
            case .failed(let message):
                throw PublishError.operationFailed(action: "Firebase's processing of '\(file.name)'", problem: message)
            case .running(let state):
                guard waited < settings.timeout else {
                    throw PublishError.operationTimedOut(action: "Firebase's processing of '\(file.name)'",
                                                         waited: DurationText.format(waited), lastState: state)
                }
                try await self.sleep(settings.pollInterval)  // the injected async wait (Task.sleep), not a blocking call
                waited += settings.pollInterval
            }
        }
    }

    static func describe(testers: [String], groups: [String]) -> String {
        var parts: [String] = []
        if !testers.isEmpty { parts.append("\(testers.count) tester\(testers.count == 1 ? "" : "s")") }
        if !groups.isEmpty { parts.append("group\(groups.count == 1 ? "" : "s") \(groups.joined(separator: ", "))") }
        return parts.joined(separator: " and ")
    }
}

/// `90s` → `1m30s`: durations as people read them in messages.
enum DurationText {
    static func format(_ duration: Duration) -> String {
        let seconds = Int(duration.components.seconds)
        if seconds < 60 { return "\(seconds)s" }
        return "\(seconds / 60)m" + (seconds % 60 == 0 ? "" : "\(seconds % 60)s")
    }
}
