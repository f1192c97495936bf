import Basics
import Crypto
import Foundation
import Networking
import Testing
import TestSupport
import TestThreads
import URLSessionHTTP

/// `HTTPRequest.trustedCertificatesFile` and `prefersHTTP2`: libcurl trusts the file and
/// negotiates HTTP/2 over TLS (against the APNs contract fake, an HTTP/2 TLS server on loopback);
/// URLSession refuses the file with a message instead of a bare TLS error.
@Suite(.dedicatedThreads) struct TrustedCertificatesFileTests {
    @Test func curlTrustsTheFileAndSpeaksHTTP2() async throws {
        let fake = try APNsContractFake(keyID: "ABC123DEFG", teamID: "AB12CD34EF", publicKeyPEM: P256.Signing.PrivateKey().publicKey.pemRepresentation, topics: ["com.example.app"])
        let url = try #require(URL(string: fake.url + "/3/device/00ff00ff00ff00ff"))
        var request = HTTPRequest(method: .post, url: url, body: .bytes(Array("{}".utf8)))
        // Without the CA file, the test CA is not trusted.
        await #expect(throws: HTTPError.self) { _ = try await CurlHTTPClient().send(request) }
        request.trustedCertificatesFile = fake.caFile
        request.prefersHTTP2 = true
        let response = try await CurlHTTPClient().send(request)
        #expect(response.protocolVersion == "HTTP/2")
        #expect(response.status == 403)
        #expect(response.bodyText == #"{"reason": "MissingProviderToken"}"#)
    }

    @Test func urlSessionRefusesACertificateAuthorityFile() async throws {
        var request = HTTPRequest(url: try #require(URL(string: "https://127.0.0.1:9/")))
        request.trustedCertificatesFile = "/tmp/ca.pem"
        await #expect(throws: HTTPError.transport(url: "https://127.0.0.1:9/",
                                                  reason: "a certificate authority file ('/tmp/ca.pem') is honoured only by the libcurl client (Linux); on macOS add the authority to the keychain instead")) {
            _ = try await URLSessionHTTPClient().send(request)
        }
    }
}
