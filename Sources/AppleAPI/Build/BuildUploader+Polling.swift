import Foundation

extension BuildUploader {
    /// Polls the build upload until COMPLETE (or FAILED, or the timeout).
    func pollUpload(_ uploadID: String, info: IPAInfo, started: Date) async throws -> (state: String, buildID: String?) {
        var attempt = 0
        var last = ""
        while true {
            let document = try await client.document(AppStoreConnectRequest(
                .get, "/v1/buildUploads/\(uploadID)", action: "read build upload \(uploadID)", roles: Self.uploadRoles))
            guard let resource = document.first else {
                throw BuildUploadError.unexpectedAnswer(step: "GET /v1/buildUploads/\(uploadID)", problem: "no data")
            }
            let upload = BuildUploadResource(resource)
            if upload.state != last { progress(.note("build upload \(uploadID): \(upload.state)")) }
            last = upload.state
            switch upload.state {
            case "COMPLETE":
                return (upload.state, upload.buildID)
            case "FAILED":
                throw BuildUploadError.uploadFailed(path: info.path, problems: upload.errors.isEmpty ? ["no reason given"] : upload.errors)
            case "PROCESSING" where !options.waitForProcessing && upload.buildID != nil:
                return (upload.state, upload.buildID)
            default:
                attempt += 1
                try await wait(attempt: attempt, started: started, what: "build upload \(uploadID)", state: upload.state)
            }
        }
    }

    /// Polls the build until its processingState is VALID; returns it.
    func pollBuild(_ buildID: String, started: Date) async throws -> String {
        var attempt = 0
        var last = ""
        while true {
            let document = try await client.document(AppStoreConnectRequest(
                .get, "/v1/builds/\(buildID)", query: [URLQueryItem(name: "fields[builds]", value: "version,processingState")],
                action: "read build \(buildID)", roles: Self.uploadRoles))
            let state = document.first?.string("processingState") ?? "PROCESSING"
            if state != last { progress(.note("build \(buildID) processing: \(state)")) }
            last = state
            switch state {
            case "VALID": return state
            case "FAILED", "INVALID": throw BuildUploadError.processingFailed(buildID: buildID, state: state)
            default:
                attempt += 1
                try await wait(attempt: attempt, started: started, what: "processing of build \(buildID)", state: state)
            }
        }
    }

    /// Sleeps before poll `attempt + 1` (doubling, capped), or throws when that would pass the timeout.
    private func wait(attempt: Int, started: Date, what: String, state: String) async throws {
        let factor = Int(pow(2.0, Double(min(attempt - 1, 16))))
        let delay = min(options.pollInterval * factor, options.maximumPollInterval)
        let elapsed = now().timeIntervalSince(started)
        let limit = Double(options.timeout.components.seconds)
        guard elapsed + Double(delay.components.seconds) <= limit else {
            throw BuildUploadError.timedOut(what: what, seconds: Int(limit), lastState: state)
        }
        try await client.retry.sleep(delay)
    }
}
