import Basics
import Crypto
import Foundation

/// Where and how to reach an S3 bucket.
public struct S3Location: Sendable, Hashable {
    /// The service endpoint, e.g. `https://s3.eu-west-1.amazonaws.com` or `http://127.0.0.1:9000`.
    public var endpoint: URL
    /// The bucket.
    public var bucket: String
    /// The region used in signatures.
    public var region: String
    /// Address the bucket in the path (`endpoint/bucket/key`, what most S3-compatible servers
    /// want) rather than in the host name (`bucket.endpoint/key`, AWS's preference).
    public var pathStyle: Bool

    /// Creates a location.
    public init(endpoint: URL, bucket: String, region: String, pathStyle: Bool) {
        self.endpoint = endpoint
        self.bucket = bucket
        self.region = region
        self.pathStyle = pathStyle
    }

    /// AWS's endpoint for `region`.
    public static func awsEndpoint(region: String) -> URL {
        URL(string: "https://s3.\(region).amazonaws.com") ?? URL(fileURLWithPath: "/")
    }

    /// The URL of `key`, with `query` (already encoded) appended.
    public func url(key: String, query: String? = nil) -> URL {
        let encodedKey = SigV4Signer.uriEncode(key, keepSlash: true)
        var base = endpoint.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        var text: String
        if pathStyle {
            text = "\(base)/\(SigV4Signer.uriEncode(bucket))/\(encodedKey)"
        } else {
            let scheme = endpoint.scheme ?? "https"
            let host = endpoint.host(percentEncoded: false) ?? ""
            let port = endpoint.port.map { ":\($0)" } ?? ""
            text = "\(scheme)://\(bucket).\(host)\(port)/\(encodedKey)"
        }
        if let query { text += "?" + query }
        return URL(string: text) ?? endpoint
    }
}

/// What a HEAD request says about an object.
public struct S3ObjectInfo: Sendable, Hashable {
    /// Content-Length.
    public var size: Int64
    /// The ETag without quotes (an MD5 for single-part uploads, `md5-N` for multipart ones).
    public var eTag: String
    /// User metadata (`x-amz-meta-*`), by lower-cased name without the prefix.
    public var metadata: [String: String]
}

/// The few S3 REST operations an upload needs, signed with SigV4 and sent through a
/// `RetryingHTTPClient`. Non-2xx answers become `TransportError`s with S3's error code.
public struct S3Client: Sendable {
    /// The bucket.
    public let location: S3Location
    private let signer: SigV4Signer
    private let http: RetryingHTTPClient
    private let now: @Sendable () -> Date

    /// A client; `now` is the clock signatures are dated with.
    public init(location: S3Location, credentials: AWSCredentials, http: RetryingHTTPClient,
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.location = location
        self.signer = SigV4Signer(credentials: credentials, region: location.region)
        self.http = http
        self.now = now
    }

    private func request(_ method: HTTPMethod, key: String, query: String? = nil, headers: HTTPHeaders = [:],
                         body: HTTPBody? = nil, payloadHash: String = SigV4Signer.emptyPayloadHash) -> HTTPRequest {
        let raw = HTTPRequest(method: method, url: location.url(key: key, query: query), headers: headers, body: body)
        return signer.sign(raw, payloadHash: payloadHash, date: now())
    }

    /// The object's size, ETag and metadata, or nil when there is none.
    public func head(key: String) async throws -> S3ObjectInfo? {
        let url = location.url(key: key)
        let response = try await http.send("HEAD of '\(url.absoluteString)'") { request(.head, key: key) }
        if response.status == 404 { return nil }
        try check(response, action: "HEAD of '\(url.absoluteString)'")
        var metadata: [String: String] = [:]
        for field in response.headers where field.name.lowercased().hasPrefix("x-amz-meta-") {
            metadata[String(field.name.lowercased().dropFirst("x-amz-meta-".count))] = field.value
        }
        let eTag = (response.headers["ETag"] ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        return S3ObjectInfo(size: Int64(response.headers["Content-Length"] ?? "") ?? -1, eTag: eTag, metadata: metadata)
    }

    /// PUTs a whole file in one request.
    public func putObject(key: String, file: String, sha256: String, headers: HTTPHeaders, action: String,
                          progress: HTTPProgressHandler?) async throws {
        let response = try await http.send(action, progress: progress) {
            request(.put, key: key, headers: headers, body: .file(path: file), payloadHash: sha256)
        }
        try check(response, action: action)
    }

    /// PUTs `bytes` as the whole object (small objects: signing files).
    public func putObject(key: String, bytes: [UInt8], action: String) async throws {
        let hash = SHA256.hash(data: bytes).hexString
        let response = try await http.send(action) { request(.put, key: key, body: .bytes(bytes), payloadHash: hash) }
        try check(response, action: action)
    }

    /// The object's bytes, or nil when there is none.
    public func getObject(key: String) async throws -> [UInt8]? {
        let action = "GET of '\(location.url(key: key).absoluteString)'"
        let response = try await http.send(action) { request(.get, key: key) }
        if response.status == 404 { return nil }
        try check(response, action: action)
        return response.body
    }

    /// Deletes the object (S3 answers success for a missing one too).
    public func deleteObject(key: String) async throws {
        let action = "DELETE of '\(location.url(key: key).absoluteString)'"
        let response = try await http.send(action) { request(.delete, key: key) }
        try check(response, action: action)
    }

    /// Every key under `prefix` (ListObjectsV2, following continuation tokens), in S3's order.
    public func listKeys(prefix: String) async throws -> [String] {
        var keys: [String] = []
        var token: String?
        repeat {
            var query = "list-type=2&prefix=\(SigV4Signer.uriEncode(prefix))"
            if let token { query = "continuation-token=\(SigV4Signer.uriEncode(token))&" + query }
            let action = "listing of '\(location.bucket)/\(prefix)'"
            let response = try await http.send(action) { [query] in request(.get, key: "", query: query) }
            try check(response, action: action)
            let text = response.bodyText
            var searchFrom = text.startIndex
            while let start = text.range(of: "<Key>", range: searchFrom..<text.endIndex),
                  let end = text.range(of: "</Key>", range: start.upperBound..<text.endIndex) {
                keys.append(XMLText.unescape(String(text[start.upperBound..<end.lowerBound])))
                searchFrom = end.upperBound
            }
            token = XMLText.first("IsTruncated", in: text) == "true" ? XMLText.first("NextContinuationToken", in: text) : nil
        } while token != nil
        return keys
    }

    /// Starts a multipart upload; returns its upload id.
    public func createMultipartUpload(key: String, headers: HTTPHeaders, action: String) async throws -> String {
        let response = try await http.send(action) { request(.post, key: key, query: "uploads", headers: headers) }
        try check(response, action: action)
        guard let uploadID = XMLText.first("UploadId", in: response.bodyText) else {
            throw TransportError.unexpectedResponse(action: action, problem: "no UploadId in \(response.bodyText.prefix(200))")
        }
        return uploadID
    }

    /// Uploads part `number` (1-based); returns its ETag.
    public func uploadPart(key: String, uploadID: String, number: Int, bytes: [UInt8], action: String,
                           progress: HTTPProgressHandler?) async throws -> String {
        let hash = SHA256.hash(data: bytes).hexString
        let query = "partNumber=\(number)&uploadId=\(SigV4Signer.uriEncode(uploadID))"
        let response = try await http.send(action, progress: progress) {
            request(.put, key: key, query: query, body: .bytes(bytes), payloadHash: hash)
        }
        try check(response, action: action)
        guard let eTag = response.headers["ETag"] else {
            throw TransportError.unexpectedResponse(action: action, problem: "no ETag for part \(number)")
        }
        return eTag
    }

    /// Completes a multipart upload from its parts' ETags, in order.
    public func completeMultipartUpload(key: String, uploadID: String, eTags: [String], action: String) async throws {
        var body = "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
        for (index, eTag) in eTags.enumerated() {
            body += "<Part><PartNumber>\(index + 1)</PartNumber><ETag>\(XMLText.escape(eTag))</ETag></Part>"
        }
        body += "</CompleteMultipartUpload>"
        let bytes = Array(body.utf8)
        let query = "uploadId=\(SigV4Signer.uriEncode(uploadID))"
        let response = try await http.send(action) {
            request(.post, key: key, query: query, headers: ["Content-Type": "application/xml"], body: .bytes(bytes),
                    payloadHash: SHA256.hash(data: bytes).hexString)
        }
        try check(response, action: action)
        // S3 may answer 200 with an <Error> body when completion fails late.
        if let code = XMLText.first("Code", in: response.bodyText), response.bodyText.contains("<Error>") {
            throw TransportError.refused(action: action, status: response.status, body: "\(code): \(XMLText.first("Message", in: response.bodyText) ?? "")")
        }
    }

    /// Abandons a multipart upload, so that its parts do not linger (and cost) in the bucket.
    public func abortMultipartUpload(key: String, uploadID: String) async {
        let query = "uploadId=\(SigV4Signer.uriEncode(uploadID))"
        _ = try? await http.send("abort of the multipart upload of '\(key)'") { request(.delete, key: key, query: query) }
    }

    private func check(_ response: HTTPResponse, action: String) throws {
        guard !response.isSuccess else { return }
        let code = XMLText.first("Code", in: response.bodyText)
        let message = XMLText.first("Message", in: response.bodyText)
        let detail = [code, message].compactMap { $0 }.joined(separator: ": ")
        throw TransportError.refused(action: action, status: response.status, body: detail.isEmpty ? response.bodyText : detail)
    }
}

/// Just enough XML for S3's small answers: the text of the first element with a given name.
enum XMLText {
    static func first(_ element: String, in text: String) -> String? {
        guard let start = text.range(of: "<\(element)>"),
              let end = text.range(of: "</\(element)>", range: start.upperBound..<text.endIndex)
        else { return nil }
        return unescape(String(text[start.upperBound..<end.lowerBound]))
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }
}
