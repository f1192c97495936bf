import Basics
import Crypto
import Foundation
import Git
import Transport

/// Where a signing storage is, as `--storage` (or the step's `storage` option) gives it:
/// a git repository URL (match's default), `s3://bucket/prefix`, or a directory path.
public enum SigningStorageLocation: Sendable, Equatable {
    case directory(path: String)
    case git(url: String)
    case s3(bucket: String, prefix: String)

    /// Parses `text`; a relative directory is resolved against `baseDirectory`.
    /// - Throws: `SigningStorageError.invalidLocation`.
    public static func parse(_ text: String, baseDirectory: String) throws -> SigningStorageLocation {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw SigningStorageError.invalidLocation(text: text, detail: "it is empty") }
        if trimmed.hasPrefix("s3://") {
            let rest = trimmed.dropFirst(5)
            let bucket = String(rest.prefix { $0 != "/" })
            guard !bucket.isEmpty else { throw SigningStorageError.invalidLocation(text: text, detail: "it names no bucket") }
            var prefix = String(rest.dropFirst(bucket.count)).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            if !prefix.isEmpty { prefix += "/" }
            return .s3(bucket: bucket, prefix: prefix)
        }
        if let scheme = trimmed.range(of: "://").map({ String(trimmed[..<$0.lowerBound]) }) {
            guard ["https", "http", "ssh", "git", "file"].contains(scheme.lowercased()) else {
                throw SigningStorageError.invalidLocation(text: text, detail: "'\(scheme)://' is not a scheme Slipway reads")
            }
            return .git(url: trimmed)
        }
        if trimmed.range(of: #"^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:"#, options: .regularExpression) != nil {
            return .git(url: trimmed)  // scp-like: git@github.com:team/certificates.git
        }
        let path = trimmed.hasPrefix("/") ? trimmed : baseDirectory + "/" + trimmed
        return path.hasSuffix(".git") ? .git(url: path) : .directory(path: path)
    }

    /// How to reach the storage.
    public struct Settings: Sendable {
        /// Open read-only (never write, commit or push).
        public var readOnly: Bool
        /// git: the branch (the repository's default when nil).
        public var gitBranch: String?
        /// git: credentials for https/ssh.
        public var gitCredentials: GitCredentials?
        /// git: where clones are kept (`<Slipway's cache>/signing`).
        public var cacheDirectory: String
        /// s3: the endpoint (AWS's for the region when nil), region and credentials.
        public var s3Endpoint: URL?
        public var s3Region: String
        public var s3Credentials: AWSCredentials?
        /// s3: the HTTP client (with retries).
        public var http: RetryingHTTPClient?
        /// git: the environment whose `GIT_AUTHOR_*` may name the author of commits (a step's,
        /// or the command's process environment); git's configuration when they are not set.
        public var environment: [String: String]
        /// Where directory storages and git clones live (the local disk unless a test says).
        public var fileSystem: any FileSystem

        /// Creates settings.
        public init(readOnly: Bool, cacheDirectory: String, gitBranch: String? = nil, gitCredentials: GitCredentials? = nil,
                    s3Endpoint: URL? = nil, s3Region: String = "us-east-1", s3Credentials: AWSCredentials? = nil,
                    http: RetryingHTTPClient? = nil, environment: [String: String] = [:],
                    fileSystem: any FileSystem = LocalFileSystem()) {
            self.readOnly = readOnly
            self.cacheDirectory = cacheDirectory
            self.gitBranch = gitBranch
            self.gitCredentials = gitCredentials
            self.s3Endpoint = s3Endpoint
            self.s3Region = s3Region
            self.s3Credentials = s3Credentials
            self.http = http
            self.environment = environment
            self.fileSystem = fileSystem
        }
    }

    /// Opens the storage (a git storage is cloned afresh into the cache).
    /// - Throws: `SigningStorageError.unreachable`, `.invalidLocation` (S3 without credentials).
    public func open(_ settings: Settings) async throws -> any SigningStorage {
        switch self {
        case let .directory(path):
            return DirectorySigningStorage(root: path, readOnly: settings.readOnly, fileSystem: settings.fileSystem)
        case let .git(url):
            let digest = SHA256.hash(data: Data(url.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
            return try await GitSigningStorage.open(url: url, cacheDirectory: settings.cacheDirectory + "/signing/" + digest,
                                                    branch: settings.gitBranch, readOnly: settings.readOnly,
                                                    environment: settings.environment, credentials: settings.gitCredentials,
                                                    fileSystem: settings.fileSystem)
        case let .s3(bucket, prefix):
            guard let credentials = settings.s3Credentials, let http = settings.http else {
                throw SigningStorageError.invalidLocation(
                    text: "s3://\(bucket)/\(prefix)", detail: "no S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
            }
            let endpoint = settings.s3Endpoint ?? S3Location.awsEndpoint(region: settings.s3Region)
            let location = S3Location(endpoint: endpoint, bucket: bucket, region: settings.s3Region, pathStyle: settings.s3Endpoint != nil)
            return S3SigningStorage(client: S3Client(location: location, credentials: credentials, http: http), prefix: prefix,
                                    readOnly: settings.readOnly)
        }
    }
}
