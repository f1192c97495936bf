import Basics
import Foundation
import Transport

/// Uploads a build through App Store Connect's Build Uploads API (4.1+):
/// `POST /v1/buildUploads` → `POST /v1/buildUploadFiles` (its `uploadOperations`) → each
/// operation's byte range sent from disk, concurrently and retried → `PATCH
/// /v1/buildUploadFiles/{id}` with `uploaded: true` and the file's SHA-256 → poll `GET
/// /v1/buildUploads/{id}?include=build` until COMPLETE → the build from its linkage, or looked up
/// by app, version and build number (never an empty build id) → (optionally) poll the build until VALID.
///
/// Idempotent: an upload for the same app, version, build number and platform found on App
/// Store Connect is resumed (awaiting upload: its file's operations are sent again; Apple does
/// not say which parts arrived) or recognised as done (processing or complete).
public struct BuildUploader: Sendable {
    /// How the upload behaves.
    public struct Options: Sendable {
        /// Parts sent at once.
        public var concurrency: Int = 4
        /// Wait for the build's processing to end (VALID).
        public var waitForProcessing: Bool = true
        /// The longest wait for the upload and the processing, together.
        public var timeout: Duration = .seconds(3600)
        /// The first wait between polls; doubled up to `maximumPollInterval`.
        public var pollInterval: Duration = .seconds(10)
        /// The longest wait between polls.
        public var maximumPollInterval: Duration = .seconds(60)

        /// Defaults: 4 parts at once, wait for processing, one hour.
        public init() {}
    }

    /// Where the upload is, for progress events.
    public enum Progress: Sendable, Equatable {
        /// A message ("reserved upload 123 (3 parts)", "processing: PROCESSING").
        case note(String)
        /// Bytes sent so far of the total.
        case bytes(sent: Int64, total: Int64)
    }

    /// What happened.
    public struct Result: Sendable, Equatable {
        /// The build upload's id.
        public var buildUploadID: String
        /// The build's id: never nil or empty once `upload` returned (it throws instead).
        public var buildID: String?
        /// The build upload's last state.
        public var uploadState: String
        /// The build's processing state, when waited for.
        public var processingState: String?
        /// True when nothing was sent because Apple already had the file.
        public var alreadyUploaded: Bool
        /// Parts sent by this run.
        public var partsSent: Int
    }

    let client: AppStoreConnectClient
    let options: Options
    let now: @Sendable () -> Date
    let progress: @Sendable (Progress) -> Void

    /// An uploader over `client`; waits go through `client.retry.sleep`.
    public init(client: AppStoreConnectClient, options: Options = Options(), now: @escaping @Sendable () -> Date = { Date() },
                progress: @escaping @Sendable (Progress) -> Void = { _ in }) {
        self.client = client
        self.options = options
        self.now = now
        self.progress = progress
    }

    /// Uploads the build `info` describes to the app `appID`.
    /// - Throws: `BuildUploadError`, `AppStoreConnectError`.
    public func upload(_ info: IPAInfo, appID: String) async throws -> Result {
        let started = now()
        let upload = try await findOrCreateUpload(info, appID: appID)
        var sent = 0
        var state = upload.string("state") ?? "AWAITING_UPLOAD"
        if state == "AWAITING_UPLOAD" {
            let file = try await findOrCreateFile(info, uploadID: upload.id)
            if file.assetState != "UPLOAD_COMPLETE" && file.assetState != "COMPLETE" {
                // The SHA-256 is read alongside the upload (a second reader of the same file).
                async let digest = Self.sha256(of: info.path)
                sent = try await sendParts(file.operations, of: info)
                try await commit(file.id, info: info, sha256: try await digest)
            }
        } else {
            progress(.note("build upload \(upload.id) for \(info.version) (\(info.buildNumber)) is already \(state); nothing to send"))
        }
        let finished = try await pollUpload(upload.id, info: info, appID: appID, started: started)
        state = finished.state
        var result = Result(buildUploadID: upload.id, buildID: finished.buildID, uploadState: state, processingState: nil,
                            alreadyUploaded: sent == 0, partsSent: sent)
        if options.waitForProcessing {
            result.processingState = try await pollBuild(finished.buildID, started: started)
        }
        return result
    }

    /// An existing upload for this version and build number (not failed), or a new one.
    private func findOrCreateUpload(_ info: IPAInfo, appID: String) async throws -> BuildUploadResource {
        let existing = try await client.all(AppStoreConnectRequest(
            .get, "/v1/apps/\(appID)/buildUploads",
            query: [URLQueryItem(name: "filter[cfBundleShortVersionString]", value: info.version),
                    URLQueryItem(name: "filter[cfBundleVersion]", value: info.buildNumber),
                    URLQueryItem(name: "filter[platform]", value: info.platform),
                    URLQueryItem(name: "sort", value: "-uploadedDate")],
            action: "list the build uploads of version \(info.version) (\(info.buildNumber))", roles: Self.uploadRoles))
            .map(BuildUploadResource.init)
        if let reusable = existing.first(where: { $0.state != "FAILED" }) {
            progress(.note("found build upload \(reusable.id) for \(info.version) (\(info.buildNumber)): \(reusable.state)"))
            return reusable
        }
        let body = JSONAPI.document(
            type: "buildUploads",
            attributes: ["cfBundleShortVersionString": .string(info.version), "cfBundleVersion": .string(info.buildNumber),
                         "platform": .string(info.platform)],
            relationships: ["app": JSONAPIIdentifier(type: "apps", id: appID).json])
        do {
            let made = try await client.document(AppStoreConnectRequest(
                .post, "/v1/buildUploads", body: body,
                action: "reserve an upload for version \(info.version) (\(info.buildNumber))", roles: Self.uploadRoles))
            guard let resource = made.first else {
                throw BuildUploadError.unexpectedAnswer(step: "POST /v1/buildUploads", problem: "no data")
            }
            progress(.note("reserved build upload \(resource.id) for \(info.bundleID) \(info.version) (\(info.buildNumber))"))
            return BuildUploadResource(resource)
        } catch let error as AppStoreConnectError where error.status == 409 {
            throw BuildUploadError.duplicateBuild(version: info.version, buildNumber: info.buildNumber,
                                                  detail: error.apiErrors.map(\.summary).joined(separator: "; "))
        }
    }

    /// The upload's file with the same name and size, or a new reservation.
    private func findOrCreateFile(_ info: IPAInfo, uploadID: String) async throws -> BuildUploadFileResource {
        let files = try await client.all(AppStoreConnectRequest(
            .get, "/v1/buildUploads/\(uploadID)/buildUploadFiles",
            action: "list the files of build upload \(uploadID)", roles: Self.uploadRoles)).map(BuildUploadFileResource.init)
        if let file = files.first(where: { $0.fileName == info.fileName && $0.fileSize == info.fileSize && $0.assetState != "FAILED" }) {
            progress(.note("resuming file \(file.id) of build upload \(uploadID) (\(file.assetState))"))
            return file
        }
        let body = JSONAPI.document(
            type: "buildUploadFiles",
            attributes: ["assetType": "ASSET", "fileName": .string(info.fileName), "fileSize": .int(info.fileSize),
                         "uti": .string(info.uti)],
            relationships: ["buildUpload": JSONAPIIdentifier(type: "buildUploads", id: uploadID).json])
        let made = try await client.document(AppStoreConnectRequest(
            .post, "/v1/buildUploadFiles", body: body, action: "reserve the file '\(info.fileName)'", roles: Self.uploadRoles))
        guard let resource = made.first else {
            throw BuildUploadError.unexpectedAnswer(step: "POST /v1/buildUploadFiles", problem: "no data")
        }
        let file = BuildUploadFileResource(resource)
        guard !file.operations.isEmpty else {
            throw BuildUploadError.unexpectedAnswer(step: "POST /v1/buildUploadFiles", problem: "no uploadOperations")
        }
        progress(.note("reserved file \(file.id): \(file.operations.count) part\(file.operations.count == 1 ? "" : "s")"))
        return file
    }

    /// The roles that may upload builds.
    public static let uploadRoles = ["Admin", "App Manager", "Developer"]
}
