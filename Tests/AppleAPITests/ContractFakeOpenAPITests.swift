import AppleAPI
import Basics
import Foundation
import TestSupport
import TestThreads
import Testing
import Transport

/// The contract fake checks every request and answer against Apple's OpenAPI document 4.4.1;
/// each kind of disagreement becomes a violation with an exact text.
@Suite("The contract fake validates against Apple's OpenAPI document", .dedicatedThreads)
struct ContractFakeOpenAPITests {
    let fixture: AppleAPIFixture
    let appID: String

    init() throws {
        fixture = try AppleAPIFixture()
        appID = try fixture.fake.seed("apps", id: "1001", attributes: #"{"bundleId": "com.example.app", "name": "Example", "sku": "EX", "primaryLocale": "en-US"}"#)
    }

    /// Sends `request`, ignoring whether Apple's answer is an error; returns the violations it caused.
    func violations(_ request: AppStoreConnectRequest) async throws -> [String] {
        _ = try? await fixture.client(attempts: 1).send(request)
        return try fixture.fake.acknowledgeViolations()
    }

    @Test func theDocumentIsFound() {
        #expect(FileManager.default.fileExists(atPath: AppStoreConnectContractFake.openAPIDocumentPath))
    }

    @Test func anUnknownPathIsAViolation() async throws {
        #expect(try await violations(AppStoreConnectRequest(.get, "/v1/nope", action: "x")) == [
            "GET /v1/nope: not a path of the OpenAPI document", "GET /v1/nope: no such documented endpoint"])
    }

    @Test func anUndocumentedMethodIsAViolation() async throws {
        #expect(try await violations(AppStoreConnectRequest(.delete, "/v1/apps/\(appID)", action: "x")) == [
            "DELETE /v1/apps/1001: /v1/apps/{id} has no DELETE operation in the OpenAPI document",
            "DELETE /v1/apps/1001: no such documented endpoint"])
    }

    @Test func anUnknownQueryParameterIsAViolation() async throws {
        let request = AppStoreConnectRequest(.get, "/v1/apps", query: [URLQueryItem(name: "filter[nope]", value: "x")], action: "x")
        #expect(try await violations(request) == [
            "GET /v1/apps: query parameter 'filter[nope]' is not documented for this operation",
            "GET /v1/apps: undocumented query parameters ['filter[nope]']"])
    }

    @Test func aBadEnumValueIsAViolation() async throws {
        let fields = AppStoreConnectRequest(.get, "/v1/apps", query: [URLQueryItem(name: "fields[apps]", value: "bundleId,nope")], action: "x")
        #expect(try await violations(fields) == ["GET /v1/apps: query parameter 'fields[apps]' has 'nope', not one of its 55 documented values"])
        let include = AppStoreConnectRequest(.get, "/v1/buildUploads/9", query: [URLQueryItem(name: "include", value: "build,app")], action: "x")
        #expect(try await violations(include) == ["GET /v1/buildUploads/9: query parameter 'include' has 'app', not one of its 4 documented values"])
        let limit = AppStoreConnectRequest(.get, "/v1/apps", query: [URLQueryItem(name: "limit", value: "300")], action: "x")
        #expect(try await violations(limit) == ["GET /v1/apps: query parameter 'limit' is 300, more than its maximum 200",
                                                "GET /v1/apps: limit must be between 1 and 200, not 300"])
    }

    @Test func anUnknownAttributeInABodyIsAViolation() async throws {
        let body = JSONAPI.document(type: "buildUploads",
                                    attributes: ["cfBundleShortVersionString": "1.0", "cfBundleVersion": "1", "platform": "IOS", "foo": 2],
                                    relationships: ["app": JSONAPIIdentifier(type: "apps", id: appID).json])
        #expect(try await violations(AppStoreConnectRequest(.post, "/v1/buildUploads", body: body, action: "x")) == [
            "POST /v1/buildUploads: body data.attributes has undocumented member 'foo'"])
        let badEnum = JSONAPI.document(type: "buildUploads",
                                       attributes: ["cfBundleShortVersionString": "1.0", "cfBundleVersion": "2", "platform": "ANDROID"],
                                       relationships: ["app": JSONAPIIdentifier(type: "apps", id: appID).json])
        #expect(try await violations(AppStoreConnectRequest(.post, "/v1/buildUploads", body: badEnum, action: "x")) == [
            "POST /v1/buildUploads: body data.attributes.platform is 'ANDROID', not one of ['IOS', 'MAC_OS', 'TV_OS', 'VISION_OS']",
            "POST /v1/buildUploads: platform 'ANDROID'"])
    }

    @Test func anAnswerWithAnUnknownAttributeIsAViolation() async throws {
        try fixture.fake.seed("apps", id: "2002", attributes: #"{"bundleId": "com.example.other", "name": "Other", "sku": "OT", "foo": 1}"#)
        #expect(try await violations(AppStoreConnectRequest(.get, "/v1/apps/2002", action: "x")) == [
            "GET /v1/apps/2002: answer 200 data.attributes has undocumented member 'foo'"])
    }

    @Test func documentedRequestsAndAnswersAreNoViolation() async throws {
        let request = AppStoreConnectRequest(.get, "/v1/apps", query: [URLQueryItem(name: "filter[bundleId]", value: "com.example.app"),
                                                                       URLQueryItem(name: "fields[apps]", value: "bundleId,name"),
                                                                       URLQueryItem(name: "limit", value: "200")], action: "x")
        #expect(try await violations(request) == [])
    }
}
