import Basics
import Foundation
import Transport

/// How an HTTP endpoint takes a file.
public enum HTTPUploadMethod: String, Sendable, Hashable, CaseIterable {
    /// `PUT URL` with the file as the body.
    case put
    /// `POST URL` with a multipart/form-data body holding the file in one field.
    case post
}

/// Uploads files to a plain HTTP endpoint (an artifact store, a CDN origin, Nexus, ...). The
/// URL may contain `{name}`, replaced by each file's (percent-encoded) name; otherwise a URL
/// ending in `/` gets the name appended. Bodies are streamed from disk: a POST's multipart
/// body is assembled in a temporary file first.
public struct HTTPUploader: Uploader {
    private let urlTemplate: String
    private let method: HTTPUploadMethod
    private let field: String
    private let headers: HTTPHeaders
    private let http: PublishHTTPClient
    private let fileSystem: any FileSystem
    private let streams: any FileStreams
    private let boundary: String

    /// An uploader; `boundary` separates multipart parts (random by default).
    public init(url: String, method: HTTPUploadMethod, field: String = "file", headers: HTTPHeaders = [:],
                http: RetryingHTTPClient, fileSystem: any FileSystem, streams: any FileStreams,
                boundary: String = "slipway-" + UUID().uuidString) {
        self.urlTemplate = url
        self.method = method
        self.field = field
        self.headers = headers
        self.http = PublishHTTPClient(http)
        self.fileSystem = fileSystem
        self.streams = streams
        self.boundary = boundary
    }

    /// The URL for `file`.
    public func destination(of file: UploadFile) -> String {
        let name = SigV4Signer.uriEncode(file.name)
        if urlTemplate.contains("{name}") { return urlTemplate.replacingOccurrences(of: "{name}", with: name) }
        if urlTemplate.hasSuffix("/") { return urlTemplate + name }
        return urlTemplate
    }

    /// - Throws: `PublishError.invalidConfiguration` when several files would go to one URL,
    ///   `.refused` (4xx, not retried), `.failedAfterRetries`.
    public func upload(_ files: [UploadFile], progress: UploadProgressHandler?) async throws -> [UploadOutcome] {
        let urls = files.map(destination(of:))
        if Set(urls).count < urls.count {
            throw PublishError.invalidConfiguration(name: urlTemplate, problem: "would receive several files at one URL. Put {name} in the URL, or end it with '/'")
        }
        for url in urls where URL(string: url) == nil {
            throw PublishError.invalidConfiguration(name: url, problem: "is not a valid URL")
        }
        var outcomes: [UploadOutcome] = []
        for (file, url) in zip(files, urls) {
            try await send(file, to: url, progress: progress)
            outcomes.append(UploadOutcome(file: file, url: url, action: .uploaded))
        }
        return outcomes
    }

    private func send(_ file: UploadFile, to url: String, progress: UploadProgressHandler?) async throws {
        guard let target = URL(string: url) else { throw PublishError.invalidConfiguration(name: url, problem: "is not a valid URL") }
        let action = "upload of '\(file.path)' to '\(url)'"
        let report = progress.forFile(file)
        var requestHeaders = headers
        switch method {
        case .put:
            if requestHeaders["Content-Type"] == nil { requestHeaders["Content-Type"] = ContentType.of(file.name) }
            _ = try await http.sendExpectingSuccess(action, progress: report) {
                HTTPRequest(method: .put, url: target, headers: requestHeaders, body: .file(path: file.path))
            }
        case .post:
            let form = MultipartForm(boundary: boundary)
            let body = try form.write(file: file, fileField: field, streams: streams, fileSystem: fileSystem)
            defer { MultipartForm.remove(body, fileSystem: fileSystem) }
            requestHeaders["Content-Type"] = form.contentType
            _ = try await http.sendExpectingSuccess(action, progress: report) {
                HTTPRequest(method: .post, url: target, headers: requestHeaders, body: .file(path: body))
            }
        }
    }
}
