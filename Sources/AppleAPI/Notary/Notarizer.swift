import Basics
import Foundation
import Transport

/// Notarizes one file through the Notary API, as `xcrun notarytool submit --wait` does, from any
/// machine: SHA-256 → `POST /notary/v2/submissions` (temporary AWS credentials, bucket, object)
/// → one SigV4 PUT of the file to S3 with the session token → poll the status with backoff
/// until Accepted, Invalid or Rejected → on Invalid/Rejected, the developer log's issues.
///
/// Idempotent: an Accepted submission of the same name among the team's recent ones whose log
/// names the same SHA-256 is reused, and nothing is sent. (The list shows names and statuses
/// only; the SHA-256 is in each submission's log.)
public struct Notarizer: Sendable {
    /// How notarization behaves.
    public struct Options: Sendable {
        /// The submission's name; the file's name by default (what Apple asks for).
        public var submissionName: String?
        /// A webhook URL the service calls when done.
        public var webhook: String?
        /// Wait for the outcome (else return once uploaded, In Progress).
        public var wait: Bool = true
        /// Look for an Accepted submission of the same file first.
        public var reuseAccepted: Bool = true
        /// How many same-named Accepted submissions to check (one log download each).
        public var reuseCandidates: Int = 5
        /// The longest wait for the outcome, from the start.
        public var timeout: Duration = .seconds(3600)
        /// The first wait between polls; doubled up to `maximumPollInterval`.
        public var pollInterval: Duration = .seconds(15)
        /// The longest wait between polls.
        public var maximumPollInterval: Duration = .seconds(60)
        /// The S3 endpoint for the upload: Apple's answer names a bucket and object only; the
        /// notary bucket is in us-west-2, reached through S3 Transfer Acceleration.
        public var s3Endpoint: URL = URL(string: "https://s3-accelerate.amazonaws.com")!
        /// The region the upload is signed for.
        public var s3Region: String = "us-west-2"

        /// Defaults: reuse, wait up to an hour, 15 s then doubling to 60 s between polls.
        public init() {}
    }

    /// What happens, for the caller's log and progress.
    public enum Progress: Sendable, Equatable {
        /// A message.
        case note(String)
        /// Bytes uploaded so far of the total.
        case bytes(sent: Int64, total: Int64)
        /// Values to mask from now on (the temporary AWS credentials), told before any use.
        case secrets([String])
        /// One issue of the developer log.
        case issue(NotaryLog.Issue)
    }

    /// What happened.
    public struct Result: Sendable, Equatable {
        /// The submission's id.
        public var submissionID: String
        /// Its last status.
        public var status: NotaryStatus
        /// The developer log's temporary URL, when fetched.
        public var logURL: String?
        /// True when an earlier Accepted submission of the same file was found and nothing sent.
        public var reused: Bool
    }

    let notary: NotaryClient
    let options: Options
    let now: @Sendable () -> Date
    let progress: @Sendable (Progress) -> Void

    /// A notarizer over `notary`; waits go through `notary.client.retry.sleep`.
    public init(notary: NotaryClient, options: Options = Options(), now: @escaping @Sendable () -> Date = { Date() },
                progress: @escaping @Sendable (Progress) -> Void = { _ in }) {
        self.notary = notary
        self.options = options
        self.now = now
        self.progress = progress
    }

    /// Notarizes `file`.
    /// - Throws: `NotaryError` (`.notAccepted` with the log's issues, `.timedOut`),
    ///   `AppStoreConnectError`, `TransportError` for the S3 upload.
    public func notarize(_ file: NotaryFile) async throws -> Result {
        let started = now()
        let name = options.submissionName ?? file.name
        if options.reuseAccepted, let found = try await acceptedSubmission(named: name, sha256: file.sha256) {
            progress(.note("submission \(found.submission.id) of '\(name)' (\(found.submission.createdDate)) is already Accepted "
                           + "for this SHA-256; nothing was sent"))
            return Result(submissionID: found.submission.id, status: .accepted, logURL: found.logURL, reused: true)
        }
        let ticket = try await notary.submit(name: name, sha256: file.sha256, webhook: options.webhook)
        progress(.secrets(ticket.secretsToMask))
        progress(.note("submission \(ticket.submissionID) started for '\(name)' (SHA-256 \(file.sha256.prefix(12))…)"))
        try await upload(file, ticket: ticket)
        guard options.wait else {
            return Result(submissionID: ticket.submissionID, status: .inProgress, logURL: nil, reused: false)
        }
        let status = try await waitForOutcome(ticket.submissionID, started: started)
        let logURL = try await notary.logURL(ticket.submissionID)
        guard status == .accepted else {
            let log = try await notary.log(at: logURL, submissionID: ticket.submissionID)
            for issue in log.issues ?? [] { progress(.issue(issue)) }
            throw NotaryError.notAccepted(file: file.path, submissionID: ticket.submissionID, status: status.rawValue,
                                          summary: log.statusSummary, issues: (log.issues ?? []).map(\.line))
        }
        progress(.note("submission \(ticket.submissionID): Accepted"))
        return Result(submissionID: ticket.submissionID, status: status, logURL: logURL.absoluteString, reused: false)
    }

    /// The newest Accepted submission named `name` whose log has `sha256`, with its log URL.
    private func acceptedSubmission(named name: String, sha256: String) async throws
        -> (submission: NotarySubmission, logURL: String)? {
        let candidates = try await notary.recentSubmissions()
            .filter { $0.name == name && $0.status == .accepted }
            .sorted { $0.createdDate > $1.createdDate }
            .prefix(max(0, options.reuseCandidates))
        for candidate in candidates {
            let url = try await notary.logURL(candidate.id)
            let log = try await notary.log(at: url, submissionID: candidate.id)
            if log.sha256?.lowercased() == sha256 { return (candidate, url.absoluteString) }
        }
        return nil
    }

    /// One SigV4-signed PUT of the whole file to the ticket's bucket and object, with the
    /// session token, retried on 5xx and dropped connections.
    private func upload(_ file: NotaryFile, ticket: NotaryUploadTicket) async throws {
        let host = options.s3Endpoint.host(percentEncoded: false) ?? ""
        let location = S3Location(endpoint: options.s3Endpoint, bucket: ticket.bucket, region: options.s3Region,
                                  pathStyle: !host.hasSuffix("amazonaws.com"))
        let s3 = S3Client(location: location, credentials: ticket.credentials,
                          http: RetryingHTTPClient(client: notary.client.http, policy: notary.client.retry), now: now)
        let progress = self.progress, total = file.size
        try await s3.putObject(key: ticket.object, file: file.path, sha256: file.sha256, headers: [:],
                               action: "upload of '\(file.path)' for notarization") { report in
            progress(.bytes(sent: report.completedBytes, total: total))
        }
        progress(.note("uploaded \(file.name) (\(file.size) bytes) for submission \(ticket.submissionID)"))
    }

    /// Polls until the status is final, or throws when the next wait would pass the timeout.
    private func waitForOutcome(_ id: String, started: Date) async throws -> NotaryStatus {
        var attempt = 0
        var last = ""
        while true {
            let status = try await notary.submission(id).status
            if status.rawValue != last { progress(.note("submission \(id): \(status.rawValue)")) }
            last = status.rawValue
            if status.isFinal { return status }
            attempt += 1
            let factor = Int(pow(2.0, Double(min(attempt - 1, 16))))
            let delay = min(options.pollInterval * factor, options.maximumPollInterval)
            let elapsed = now().timeIntervalSince(started)
            let limit = Double(options.timeout.components.seconds) + Double(options.timeout.components.attoseconds) / 1e18
            let wait = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
            guard elapsed + wait <= limit else {
                throw NotaryError.timedOut(submissionID: id, seconds: Int(limit), lastStatus: status.rawValue)
            }
            try await notary.client.retry.sleep(delay)
        }
    }
}
