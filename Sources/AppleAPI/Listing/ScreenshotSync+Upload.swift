import Basics
import Foundation
import Transport

extension ScreenshotSync {
    /// Apple's asset upload for one file
    /// (https://developer.apple.com/documentation/appstoreconnectapi/uploading-assets-to-app-store-connect):
    /// reserve it in the set, send each upload operation (the build upload's sender: streamed from
    /// disk, retried on 5xx and dropped connections), commit with `uploaded: true` and the file's
    /// MD5 as `sourceFileChecksum`, then poll until `assetDeliveryState` is COMPLETE.
    /// - Returns: the screenshot's id, or Apple's reason it FAILED (or that it did not finish).
    func upload(_ file: LocalScreenshot, setID: String, options: ScreenshotPushOptions) async throws
        -> Result<String, ScreenshotProblem> {
        let body = JSONAPI.document(
            type: "appScreenshots", attributes: ["fileName": .string(file.fileName), "fileSize": .int(file.fileSize)],
            relationships: ["appScreenshotSet": JSONAPIIdentifier(type: "appScreenshotSets", id: setID).json])
        let made = try await client.document(AppStoreConnectRequest(
            .post, "/v1/appScreenshots", body: body, action: "reserve the screenshot '\(file.path)'", roles: Self.roles, retry: .never))
        guard let resource = made.first else {
            throw ScreenshotError.unexpectedAnswer(step: "POST /v1/appScreenshots", problem: "no data")
        }
        let reserved = RemoteScreenshot(resource)
        guard !reserved.operations.isEmpty else {
            throw ScreenshotError.unexpectedAnswer(step: "POST /v1/appScreenshots", problem: "no uploadOperations for '\(file.fileName)'")
        }
        for operation in reserved.operations where operation.offset < 0 || operation.length < 0 || operation.offset + operation.length > file.fileSize {
            throw ScreenshotError.unexpectedAnswer(
                step: "POST /v1/appScreenshots",
                problem: "an upload operation covers bytes \(operation.offset)..<\(operation.offset + operation.length) of the \(file.fileSize)-byte '\(file.fileName)'")
        }
        let retrying = RetryingHTTPClient(client: client.http, policy: client.retry)
        for operation in reserved.operations {
            try await BuildUploader.send(operation, path: file.path, with: retrying, step: "POST /v1/appScreenshots") { _ in }
        }
        _ = try await client.send(AppStoreConnectRequest(
            .patch, "/v1/appScreenshots/\(reserved.id)",
            body: JSONAPI.document(type: "appScreenshots", id: reserved.id,
                                   attributes: ["uploaded": true, "sourceFileChecksum": .string(file.checksum)]),
            action: "commit the screenshot '\(file.path)'", roles: Self.roles, retry: .blindly))
        var state = "UPLOAD_COMPLETE"
        for poll in 0..<max(1, options.processingPolls) {
            if poll > 0 { try await client.retry.sleep(options.pollInterval) }
            let read = try await client.document(AppStoreConnectRequest(
                .get, "/v1/appScreenshots/\(reserved.id)", action: "read the screenshot '\(file.fileName)' (\(reserved.id))", roles: Self.roles))
            guard let current = read.first.map(RemoteScreenshot.init) else {
                throw ScreenshotError.unexpectedAnswer(step: "GET /v1/appScreenshots/\(reserved.id)", problem: "no data")
            }
            state = current.state
            if state == "COMPLETE" { return .success(reserved.id) }
            if state == "FAILED" {
                return .failure(ScreenshotProblem(text: "App Store Connect marked it FAILED ("
                    + (current.errors.isEmpty ? "no reason given" : current.errors.joined(separator: "; ")) + ")"))
            }
        }
        return .failure(ScreenshotProblem(text: "still \(state) after \(max(1, options.processingPolls)) polls; run again later "
                                                + "(a screenshot Apple finishes is then left alone)"))
    }
}
