import Basics
import Foundation
import Publish
import Transport

/// The upload step's options, read and checked per backend: options of another backend are
/// refused, and each backend's required options are demanded, before anything runs.
struct UploadOptions: Sendable {
    enum Backend: String, Sendable, CaseIterable {
        case directory, s3
        case githubRelease = "github-release"
        case http
        case deploygate
        case firebase
    }

    static let specs: [OptionSpec] = [
        .optional("to", .choice(Backend.allCases.map(\.rawValue)), default: .string("directory"), "Where to upload."),
        .required("files", .list(.string), "The files or patterns (dist/*; rules in docs/patterns.md) to upload; each keeps its name."),
        .optional("attempts", .int, default: .int(3), "Attempts per request on 5xx answers and dropped connections."),
        .optional("directory", .string, default: .string(".slipway/published"), "directory: the folder to copy into."),
        .optional("overwrite", .bool, default: .bool(false), "directory, s3: replace a different file of the same name."),
        .optional("bucket", .string, "s3: the bucket."),
        .optional("region", .string, default: .string("us-east-1"), "s3: the bucket's region."),
        .optional("endpoint", .string, "s3: an S3-compatible endpoint URL (default: AWS's for the region)."),
        .optional("prefix", .string, "s3: a key prefix, e.g. releases/1.2.0."),
        .optional("path-style", .bool, "s3: address the bucket in the path (default: true when endpoint is set)."),
        .optional("access-key-id", .string, "s3: the access key id (from a secret)."),
        .optional("secret-access-key", .string, "s3: the secret access key (from a secret)."),
        .optional("session-token", .string, "s3: a session token for temporary credentials (from a secret)."),
        .optional("acl", .string, "s3: a canned ACL such as public-read."),
        .optional("multipart-threshold", .string, default: .string("64MiB"), "s3: files this large or larger go up in parts."),
        .optional("part-size", .string, default: .string("16MiB"), "s3: the size of each part (at least 5MiB)."),
        .optional("concurrency", .int, default: .int(4), "s3: parts in flight at once."),
        .optional("repository", .string, "github-release: owner/name."),
        .optional("tag", .string, "github-release: the release's tag."),
        .optional("token", .string, "github-release: a token allowed to write releases; deploygate: the API key (from a secret)."),
        .optional("release-name", .string, "github-release: the title of a new release (default: the tag)."),
        .optional("notes", .string, "github-release: the notes of a new release (Markdown); firebase: the release notes."),
        .optional("draft", .bool, default: .bool(false), "github-release: create the release as a draft."),
        .optional("prerelease", .bool, default: .bool(false), "github-release: mark a new release as a pre-release."),
        .optional("target", .string, "github-release: the branch or commit a new tag points at."),
        .optional("replace", .bool, default: .bool(false), "github-release: delete and re-upload assets of the same name."),
        .optional("api-url", .string, default: .string("https://api.github.com"), "github-release: the API's base URL."),
        .optional("upload-url", .string, default: .string("https://uploads.github.com"), "github-release: the upload base URL."),
        .optional("url", .string, "http: the URL; {name} is replaced by each file's name."),
        .optional("method", .choice(["put", "post"]), default: .string("put"), "http: PUT the file, or POST it as multipart/form-data."),
        .optional("field", .string, default: .string("file"), "http: the form field of a POST."),
        .optional("headers", .map(.string), "http: extra request headers (e.g. Authorization from a secret)."),
    ] + distributionSpecs

    /// Which options belong to which backends (the common ones are not listed).
    static let owners: [String: [Backend]] = {
        var owners: [String: [Backend]] = ["directory": [.directory]]
        for name in ["bucket", "region", "endpoint", "prefix", "path-style", "access-key-id", "secret-access-key", "session-token",
                     "acl", "multipart-threshold", "part-size", "concurrency"] { owners[name] = [.s3] }
        for name in ["repository", "tag", "release-name", "draft", "prerelease", "target", "replace",
                     "api-url", "upload-url"] { owners[name] = [.githubRelease] }
        for name in ["url", "method", "field", "headers"] { owners[name] = [.http] }
        for name in ["owner", "message", "distribution-key", "distribution-name", "release-note", "disable-notify",
                     "deploygate-url"] { owners[name] = [.deploygate] }
        for name in ["app-id", "service-account", "notes-file", "testers", "groups", "firebase-url", "poll-interval",
                     "processing-timeout"] { owners[name] = [.firebase] }
        owners["token"] = [.githubRelease, .deploygate]
        owners["notes"] = [.githubRelease, .firebase]
        return owners
    }()

    let values: StepOptions
    let backend: Backend
    let files: [String]
    let attempts: Int
    let directory: String
    let overwrite: Bool
    let replace: Bool

    init(_ options: StepOptions) throws {
        values = options
        backend = Backend(rawValue: try options.requiredString("to")) ?? .directory
        files = try options.strings("files")
        attempts = try options.requiredInt("attempts")
        directory = try options.requiredString("directory")
        overwrite = try options.bool("overwrite")
        replace = try options.bool("replace")
        guard !files.isEmpty else { throw StepError.invalidOption(name: "files", problem: "is empty. List the files to upload.") }
        guard (1...10).contains(attempts) else { throw StepError.invalidOption(name: "attempts", problem: "must be between 1 and 10") }
        // Options that the lane set explicitly (defaults are filled in by the runner, so only
        // non-default values of another backend's options count).
        for (name, owners) in Self.owners.sorted(by: { $0.key < $1.key }) where !owners.contains(backend) {
            guard let value = options.values[name], value != .null,
                  value != Self.specs.first(where: { $0.name == name })?.defaultValue else { continue }
            let applies = owners.map { "to: \($0.rawValue)" }.joined(separator: " or ")
            throw StepError.invalidOption(name: name, problem: "applies to \(applies), not to: \(backend.rawValue)")
        }
        switch backend {
        case .directory: break
        case .s3: _ = try s3()
        case .githubRelease: _ = try github()
        case .http: _ = try http()
        case .deploygate: _ = try deployGate()
        case .firebase: _ = try firebase()
        }
    }

    func required(_ name: String) throws -> String {
        guard let value = try values.string(name), !value.isEmpty else {
            throw StepError.invalidOption(name: name, problem: "is required for to: \(backend.rawValue)")
        }
        return value
    }

    func url(_ name: String, _ text: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
            throw StepError.invalidOption(name: name, problem: "'\(text)' is not an http:// or https:// URL")
        }
        return url
    }

    func s3() throws -> (location: S3Location, credentials: AWSCredentials, settings: S3UploadSettings) {
        let region = try values.requiredString("region")
        let endpointText = try values.string("endpoint")
        let endpoint = try endpointText.map { try url("endpoint", $0) } ?? S3Location.awsEndpoint(region: region)
        let pathStyle = try values.values["path-style"] == nil ? endpointText != nil : values.bool("path-style")
        let location = S3Location(endpoint: endpoint, bucket: try required("bucket"), region: region, pathStyle: pathStyle)
        let credentials = AWSCredentials(accessKeyID: try required("access-key-id"), secretAccessKey: try required("secret-access-key"),
                                         sessionToken: try values.string("session-token"))
        let partSize = try PublishStepSupport.byteSize(try values.requiredString("part-size"), option: "part-size")
        guard partSize >= 5 << 20 else { throw StepError.invalidOption(name: "part-size", problem: "must be at least 5MiB (S3's minimum)") }
        let concurrency = try values.requiredInt("concurrency")
        guard (1...32).contains(concurrency) else { throw StepError.invalidOption(name: "concurrency", problem: "must be between 1 and 32") }
        let settings = S3UploadSettings(prefix: try values.string("prefix") ?? "",
                                        multipartThreshold: try PublishStepSupport.byteSize(try values.requiredString("multipart-threshold"),
                                                                                            option: "multipart-threshold"),
                                        partSize: partSize, concurrency: concurrency, overwrite: overwrite, acl: try values.string("acl"))
        return (location, credentials, settings)
    }

    func github() throws -> (apiURL: String, uploadURL: String, repository: String, token: String, release: GitHubReleaseDraft) {
        let repository = try required("repository")
        let parts = repository.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty }) else {
            throw StepError.invalidOption(name: "repository", problem: "'\(repository)' is not owner/name")
        }
        let apiURL = try values.requiredString("api-url")
        let uploadURL = try values.requiredString("upload-url")
        _ = try url("api-url", apiURL)
        _ = try url("upload-url", uploadURL)
        let release = GitHubReleaseDraft(tag: try required("tag"), name: try values.string("release-name"), notes: try values.string("notes"),
                                         draft: try values.bool("draft"), prerelease: try values.bool("prerelease"),
                                         targetCommitish: try values.string("target"))
        return (apiURL, uploadURL, repository, try required("token"), release)
    }

    func http() throws -> (url: String, method: HTTPUploadMethod, field: String, headers: HTTPHeaders) {
        let target = try required("url")
        _ = try url("url", target.replacingOccurrences(of: "{name}", with: "name"))
        let method = HTTPUploadMethod(rawValue: try values.requiredString("method")) ?? .put
        var headers = HTTPHeaders()
        for (name, value) in try values.stringMap("headers").sorted(by: { $0.key < $1.key }) { headers[name] = value }
        return (target, method, try values.requiredString("field"), headers)
    }

    /// Where the files go, for plans (no credentials).
    func destinationSummary(_ context: StepContext) -> String {
        switch backend {
        case .directory: return context.resolve(directory)
        case .s3:
            let bucket = (try? values.string("bucket")) ?? nil
            let prefix = ((try? values.string("prefix")) ?? nil).map { "/\($0)" } ?? ""
            return "s3://\(bucket ?? "?")\(prefix)"
        case .githubRelease:
            let repository = ((try? values.string("repository")) ?? nil) ?? "?"
            let tag = ((try? values.string("tag")) ?? nil) ?? "?"
            return "the GitHub release \(tag) of \(repository)"
        case .http: return ((try? values.string("url")) ?? nil) ?? "?"
        case .deploygate: return "DeployGate (owner \(((try? values.string("owner")) ?? nil) ?? "?"))"
        case .firebase: return "Firebase App Distribution (app \(((try? values.string("app-id")) ?? nil) ?? "?"))"
        }
    }
}
