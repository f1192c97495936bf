import Basics
import Crypto
import Foundation

/// AWS credentials. Only ever given through declared secrets; never logged.
public struct AWSCredentials: Sendable, Hashable {
    /// The access key id.
    public var accessKeyID: String
    /// The secret access key.
    public var secretAccessKey: String
    /// A session token, for temporary credentials.
    public var sessionToken: String?

    /// Creates credentials.
    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }
}

/// Signs requests with AWS Signature Version 4 (header-based: `Authorization`, `x-amz-date`,
/// `x-amz-content-sha256`), as S3 and S3-compatible servers expect. Every header the request
/// carries is signed, plus `host`.
public struct SigV4Signer: Sendable {
    /// The credentials.
    public var credentials: AWSCredentials
    /// The region, e.g. `us-east-1`.
    public var region: String
    /// The service, `s3`.
    public var service: String

    /// Creates a signer.
    public init(credentials: AWSCredentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// The SHA-256 of an empty body, for requests without one.
    public static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// `request` with the date, payload hash, session token and `Authorization` headers added.
    /// `payloadHash` is the hex SHA-256 of the body (or `UNSIGNED-PAYLOAD`).
    public func sign(_ request: HTTPRequest, payloadHash: String, date: Date) -> HTTPRequest {
        var signed = request
        let (amzDate, day) = Self.timestamps(date)
        signed.headers["x-amz-date"] = amzDate
        signed.headers["x-amz-content-sha256"] = payloadHash
        if let token = credentials.sessionToken { signed.headers["x-amz-security-token"] = token }
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let (canonical, signedHeaders) = Self.canonicalRequest(signed, payloadHash: payloadHash)
        let stringToSign = "AWS4-HMAC-SHA256\n\(amzDate)\n\(scope)\n\(SHA256.hash(data: Array(canonical.utf8)).hexString)"
        var key = SymmetricKey(data: Array("AWS4\(credentials.secretAccessKey)".utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Array(HMAC<SHA256>.authenticationCode(for: Array(part.utf8), using: key)))
        }
        let signature = HMAC<SHA256>.authenticationCode(for: Array(stringToSign.utf8), using: key).hexString
        signed.headers["Authorization"] = "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), "
            + "SignedHeaders=\(signedHeaders), Signature=\(signature)"
        return signed
    }

    /// The canonical request and the signed-header list.
    static func canonicalRequest(_ request: HTTPRequest, payloadHash: String) -> (String, String) {
        var headers: [String: String] = ["host": hostHeader(request.url)]
        for field in request.headers {
            let name = field.name.lowercased()
            let value = field.value.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            headers[name] = headers[name].map { $0 + "," + value } ?? value
        }
        let names = headers.keys.sorted()
        let canonicalHeaders = names.map { "\($0):\(headers[$0] ?? "")\n" }.joined()
        let signedHeaders = names.joined(separator: ";")
        let path = request.url.path(percentEncoded: true)
        let canonical = [request.method.rawValue, path.isEmpty ? "/" : path, canonicalQuery(request.url),
                         canonicalHeaders, signedHeaders, payloadHash].joined(separator: "\n")
        return (canonical, signedHeaders)
    }

    /// Query parameters sorted by name, names and values percent-encoded; `?uploads` becomes
    /// `uploads=`.
    static func canonicalQuery(_ url: URL) -> String {
        guard let query = url.query(percentEncoded: true), !query.isEmpty else { return "" }
        let pairs = query.split(separator: "&").map { item -> (String, String) in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let value = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
            return (uriEncode(name), uriEncode(value))
        }
        return pairs.sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// The Host header URLSession sends: the host, and the port when one is given.
    static func hostHeader(_ url: URL) -> String {
        let host = url.host(percentEncoded: false) ?? ""
        guard let port = url.port else { return host }
        let scheme = url.scheme?.lowercased()
        if (scheme == "https" && port == 443) || (scheme == "http" && port == 80) { return host }
        return "\(host):\(port)"
    }

    /// RFC 3986 encoding as AWS wants it: everything but A–Z a–z 0–9 `-._~` (and `/` when
    /// `keepSlash`) as %XX, upper-case.
    public static func uriEncode(_ text: String, keepSlash: Bool = false) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "/") where keepSlash:
                result.append("/")
            default:
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    /// `20130524T000000Z` and `20130524`, in UTC.
    static func timestamps(_ date: Date) -> (String, String) {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let stamp = formatter.string(from: date)
        return (stamp, String(stamp.prefix(8)))
    }
}
