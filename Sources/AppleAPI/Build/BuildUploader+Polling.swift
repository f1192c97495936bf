import Foundation

extension BuildUploader {
    /// Polls the build upload (with `include=build`) until COMPLETE (or FAILED, or the timeout),
    /// then finds its build: from the upload's linkage or `included`, else by looking the build up
    /// (`lookUpBuild`). Never returns without a build id.
    func pollUpload(_ uploadID: String, info: IPAInfo, appID: String, started: Date) async throws -> (state: String, buildID: String) {
        var attempt = 0
        var last = ""
        var announcedLookup = false
        while true {
            let document = try await client.document(AppStoreConnectRequest(
                .get, "/v1/buildUploads/\(uploadID)", query: [URLQueryItem(name: "include", value: "build")],
                action: "read build upload \(uploadID)", roles: Self.uploadRoles))
            guard let resource = document.first else {
                throw BuildUploadError.unexpectedAnswer(step: "GET /v1/buildUploads/\(uploadID)", problem: "no data")
            }
            let upload = BuildUploadResource(resource)
            let linked = upload.buildID ?? document.included.first { $0.type == "builds" && !$0.id.isEmpty }?.id
            if upload.state != last { progress(.note("build upload \(uploadID): \(upload.state)")) }
            last = upload.state
            switch upload.state {
            case "COMPLETE":
                if let linked { return (upload.state, linked) }
                if !announcedLookup {
                    progress(.note("build upload \(uploadID) names no build; looking for build \(info.version) (\(info.buildNumber)) in GET /v1/builds"))
                    announcedLookup = true
                }
                if let found = try await lookUpBuild(info, appID: appID) { return (upload.state, found) }
                attempt += 1
                try await wait(attempt: attempt, started: started, what: "build upload \(uploadID)", state: upload.state,
                               onTimeout: .buildNotFound(uploadID: uploadID, version: info.version, buildNumber: info.buildNumber,
                                                         seconds: Int(options.timeout.components.seconds)))
            case "FAILED":
                throw BuildUploadError.uploadFailed(path: info.path, problems: upload.errors.isEmpty ? ["no reason given"] : upload.errors)
            case "PROCESSING" where !options.waitForProcessing && linked != nil:
                if let linked { return (upload.state, linked) }
                fallthrough
            default:
                attempt += 1
                try await wait(attempt: attempt, started: started, what: "build upload \(uploadID)", state: upload.state)
            }
        }
    }

    /// The build of this app, version and build number (`GET /v1/builds` with `filter[app]`,
    /// `filter[preReleaseVersion.version]`, `filter[version]` and `filter[preReleaseVersion.platform]`), or nil.
    func lookUpBuild(_ info: IPAInfo, appID: String) async throws -> String? {
        let document = try await client.document(AppStoreConnectRequest(
            .get, "/v1/builds",
            query: [URLQueryItem(name: "filter[app]", value: appID),
                    URLQueryItem(name: "filter[preReleaseVersion.version]", value: info.version),
                    URLQueryItem(name: "filter[version]", value: info.buildNumber),
                    URLQueryItem(name: "filter[preReleaseVersion.platform]", value: info.platform),
                    URLQueryItem(name: "fields[builds]", value: "version,processingState"),
                    URLQueryItem(name: "limit", value: "1")],
            action: "look up build \(info.version) (\(info.buildNumber))", roles: Self.uploadRoles))
        return document.data.first { !$0.id.isEmpty }?.id
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
    private func wait(attempt: Int, started: Date, what: String, state: String, onTimeout: BuildUploadError? = nil) async throws {
        let factor = Int(pow(2.0, Double(min(attempt - 1, 16))))
        let delay = min(options.pollInterval * factor, options.maximumPollInterval)
        let elapsed = now().timeIntervalSince(started)
        let limit = Double(options.timeout.components.seconds)
        guard elapsed + Double(delay.components.seconds) <= limit else {
            throw onTimeout ?? BuildUploadError.timedOut(what: what, seconds: Int(limit), lastState: state)
        }
        try await client.retry.sleep(delay)
    }
}
