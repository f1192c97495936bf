@testable import AppleAPI
import Basics
import Crypto
import Foundation
import Testing
import TestSupport
import TestThreads

/// A collection's `links.next` is followed only on the API's own scheme, host and port (the
/// bearer token goes with every request), and a collection longer than the page limit is an
/// error, never a silent part. A scripted HTTP client answers; no network.
@Suite("App Store Connect paging links", .dedicatedThreads)
struct PagingLinksTests {
    /// Answers every request with one page whose `links.next` is `next`; keeps the URLs asked.
    final class ScriptedPages: HTTPClient, @unchecked Sendable {
        let next: String
        private let lock = NSLock()
        private var asked: [String] = []
        var urls: [String] { lock.withLock { asked } }

        init(next: String) { self.next = next }

        func send(_ request: HTTPRequest, progress: HTTPProgressHandler?) async throws -> HTTPResponse {
            lock.withLock { asked.append(request.url.absoluteString) }
            let body = "{\"data\": [{\"type\": \"builds\", \"id\": \"\(urls.count)\", \"attributes\": {\"version\": \"\(urls.count)\"}}], \"links\": {\"next\": \"\(next)\"}}"
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Array(body.utf8))
        }

        func download(_ request: HTTPRequest, to destination: String, progress: HTTPProgressHandler?) async throws -> HTTPResponse {
            throw HTTPError.unsupportedURL(url: request.url.absoluteString)
        }
    }

    func client(_ http: ScriptedPages) throws -> AppStoreConnectClient {
        let key = try AppStoreConnectKey(issuerID: AppleAPIFixture.issuerID, keyID: "ABC123DEFG", privateKeyPEM: P256.Signing.PrivateKey().pemRepresentation)
        return AppStoreConnectClient(key: key, http: http, baseURL: URL(string: "https://api.appstoreconnect.apple.com")!)
    }

    @Test func aNextLinkToAnotherHostIsNotFollowed() async throws {
        for next in ["https://collector.example/v1/builds?cursor=2", "http://api.appstoreconnect.apple.com/v1/builds?cursor=2",
                     "https://api.appstoreconnect.apple.com:8443/v1/builds?cursor=2"] {
            let http = ScriptedPages(next: next)
            let request = AppStoreConnectRequest(.get, "/v1/builds", action: "list the builds", roles: [])
            await #expect {
                _ = try await client(http).all(request)
            } throws: { error in
                guard case AppStoreConnectError.unexpectedResponse(_, let problem) = error else { return false }
                return problem == "the next page's link '\(next)' is not on https://api.appstoreconnect.apple.com; slipway sends its token to that host only"
            }
            #expect(http.urls == ["https://api.appstoreconnect.apple.com/v1/builds"], "\(http.urls)")
        }
    }

    @Test func moreThanThePageLimitIsAnErrorNotAPart() async throws {
        let http = ScriptedPages(next: "https://api.appstoreconnect.apple.com/v1/builds?cursor=more")
        let request = AppStoreConnectRequest(.get, "/v1/builds", action: "list the builds", roles: [])
        await #expect(throws: AppStoreConnectPagingError(what: "items (to list the builds)", pages: 3, read: 3)) {
            _ = try await client(http).all(request, pageLimit: 3)
        }
        #expect(http.urls.count == 3)
    }
}
