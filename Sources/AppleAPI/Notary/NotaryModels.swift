import Foundation
import Transport

/// A submission's status as the Notary API reports it
/// (https://developer.apple.com/documentation/notaryapi/get-submission-status).
public struct NotaryStatus: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// Apple's text, e.g. `In Progress`.
    public let rawValue: String

    /// A status by Apple's text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Still being checked.
    public static let inProgress = NotaryStatus(rawValue: "In Progress")
    /// Notarized: a ticket exists and can be stapled.
    public static let accepted = NotaryStatus(rawValue: "Accepted")
    /// The software has problems the log lists.
    public static let invalid = NotaryStatus(rawValue: "Invalid")
    /// Apple refused the software; the log says why.
    public static let rejected = NotaryStatus(rawValue: "Rejected")

    /// True for Accepted, Invalid and Rejected: polling can stop.
    public var isFinal: Bool { self == .accepted || self == .invalid || self == .rejected }

    public var description: String { rawValue }
}

/// One submission: its id, the name it was given, its status and when it was made.
public struct NotarySubmission: Sendable, Hashable {
    /// The submission id (a UUID), used in every path about it.
    public var id: String
    /// The name given when submitting (the file's name).
    public var name: String
    /// The status.
    public var status: NotaryStatus
    /// `createdDate`, as Apple wrote it (ISO 8601).
    public var createdDate: String

    /// Creates a value.
    public init(id: String, name: String, status: NotaryStatus, createdDate: String) {
        self.id = id
        self.name = name
        self.status = status
        self.createdDate = createdDate
    }

    init(_ resource: JSONAPIResource) {
        self.init(id: resource.id, name: resource.string("name") ?? "", status: NotaryStatus(rawValue: resource.string("status") ?? ""),
                  createdDate: resource.string("createdDate") ?? "")
    }
}

/// What `POST /notary/v2/submissions` answers: the submission id and where to upload the file,
/// with temporary AWS credentials (secrets: mask them).
public struct NotaryUploadTicket: Sendable, Hashable {
    /// The new submission's id.
    public var submissionID: String
    /// Temporary credentials, with their session token.
    public var credentials: AWSCredentials
    /// The S3 bucket.
    public var bucket: String
    /// The object key to PUT the file at.
    public var object: String

    /// Creates a value.
    public init(submissionID: String, credentials: AWSCredentials, bucket: String, object: String) {
        self.submissionID = submissionID
        self.credentials = credentials
        self.bucket = bucket
        self.object = object
    }

    /// The values to mask: the access key id, the secret key and the session token.
    public var secretsToMask: [String] {
        [credentials.accessKeyID, credentials.secretAccessKey] + (credentials.sessionToken.map { [$0] } ?? [])
    }
}

/// The developer log of a finished submission (the JSON behind `developerLogUrl`), the fields
/// Slipway prints. Apple documents it as JSON holding errors and warnings
/// (https://developer.apple.com/documentation/notaryapi/get-submission-log); its shape is the
/// one `notarytool log` prints.
public struct NotaryLog: Sendable, Hashable, Decodable {
    /// One problem the notary service found.
    public struct Issue: Sendable, Hashable, Decodable {
        /// `error` or `warning`.
        public var severity: String?
        /// The file inside the submission, e.g. `App.zip/App.app/Contents/MacOS/App`.
        public var path: String?
        /// What is wrong.
        public var message: String?
        /// Apple's page about the problem.
        public var docUrl: String?
        /// The architecture of the binary at fault, e.g. `arm64`.
        public var architecture: String?

        /// Creates a value.
        public init(severity: String? = nil, path: String? = nil, message: String? = nil, docUrl: String? = nil,
                    architecture: String? = nil) {
            self.severity = severity
            self.path = path
            self.message = message
            self.docUrl = docUrl
            self.architecture = architecture
        }

        /// `error: App.zip/App.app/Contents/MacOS/App (arm64): message (docUrl)`.
        public var line: String {
            var text = (severity ?? "issue") + ": " + (path ?? "(no path)")
            if let architecture, !architecture.isEmpty { text += " (\(architecture))" }
            text += ": " + (message ?? "(no message)")
            if let docUrl, !docUrl.isEmpty { text += " — " + docUrl }
            return text
        }
    }

    /// The submission id.
    public var jobId: String?
    /// The status, e.g. `Invalid`.
    public var status: String?
    /// One line, e.g. `Archive contains critical validation errors`.
    public var statusSummary: String?
    /// The SHA-256 of what was uploaded (hex).
    public var sha256: String?
    /// The file's name.
    public var archiveFilename: String?
    /// The problems found (none when clean).
    public var issues: [Issue]?

    /// Creates a value.
    public init(jobId: String? = nil, status: String? = nil, statusSummary: String? = nil, sha256: String? = nil,
                archiveFilename: String? = nil, issues: [Issue]? = nil) {
        self.jobId = jobId
        self.status = status
        self.statusSummary = statusSummary
        self.sha256 = sha256
        self.archiveFilename = archiveFilename
        self.issues = issues
    }
}
