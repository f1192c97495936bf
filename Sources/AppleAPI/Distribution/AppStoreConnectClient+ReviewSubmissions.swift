import Foundation

/// A review submission (`reviewSubmissions`): a draft (READY_FOR_REVIEW), or submitted.
public struct ReviewSubmission: Sendable, Hashable {
    /// Its id.
    public var id: String
    /// READY_FOR_REVIEW, WAITING_FOR_REVIEW, IN_REVIEW, UNRESOLVED_ISSUES, CANCELING, COMPLETING, COMPLETE.
    public var state: String

    /// True while items can be added and it can be submitted.
    public var isDraft: Bool { state == "READY_FOR_REVIEW" || state == "UNRESOLVED_ISSUES" }
}

/// Review submissions, which replaced `appStoreVersionSubmissions`
/// (https://developer.apple.com/documentation/appstoreconnectapi/review-submissions,
/// https://developer.apple.com/documentation/appstoreconnectapi/review-submission-items).
extension AppStoreConnectClient {
    /// The app's submissions on `platform` that are not finished
    /// (`GET /v1/reviewSubmissions?filter[app]=&filter[platform]=&filter[state]=`).
    public func openReviewSubmissions(appID: String, platform: String) async throws -> [ReviewSubmission] {
        try await all(AppStoreConnectRequest(
            .get, "/v1/reviewSubmissions",
            query: [URLQueryItem(name: "filter[app]", value: appID), URLQueryItem(name: "filter[platform]", value: platform),
                    URLQueryItem(name: "filter[state]", value: "READY_FOR_REVIEW,WAITING_FOR_REVIEW,IN_REVIEW,UNRESOLVED_ISSUES"),
                    URLQueryItem(name: "fields[reviewSubmissions]", value: "platform,state")],
            action: "list the open review submissions of app \(appID)", roles: Self.readRoles))
            .map { ReviewSubmission(id: $0.id, state: $0.string("state") ?? "") }
    }

    /// The App Store version ids among a submission's items
    /// (`GET /v1/reviewSubmissions/{id}/items?include=appStoreVersion`).
    public func reviewSubmissionVersionIDs(submissionID: String) async throws -> [String] {
        try await all(AppStoreConnectRequest(
            .get, "/v1/reviewSubmissions/\(submissionID)/items",
            query: [URLQueryItem(name: "fields[reviewSubmissionItems]", value: "state,appStoreVersion"),
                    URLQueryItem(name: "include", value: "appStoreVersion")],
            action: "list the items of review submission \(submissionID)", roles: Self.readRoles))
            .filter { $0.string("state") != "REMOVED" }
            .flatMap { $0.related("appStoreVersion").map(\.id) }
    }

    /// Opens a submission (`POST /v1/reviewSubmissions`).
    public func createReviewSubmission(appID: String, platform: String) async throws -> ReviewSubmission {
        let made = try await document(AppStoreConnectRequest(
            .post, "/v1/reviewSubmissions",
            body: JSONAPI.document(type: "reviewSubmissions", attributes: ["platform": .string(platform)],
                                   relationships: ["app": JSONAPIIdentifier(type: "apps", id: appID).json]),
            action: "open a review submission for app \(appID)", roles: Self.releaseRoles, retry: .blindly))
        guard let resource = made.first else {
            throw AppStoreDistributionError.unexpectedAnswer(step: "POST /v1/reviewSubmissions", problem: "no data")
        }
        return ReviewSubmission(id: resource.id, state: resource.string("state") ?? "READY_FOR_REVIEW")
    }

    /// Adds an App Store version to a submission (`POST /v1/reviewSubmissionItems`).
    public func addToReviewSubmission(_ submissionID: String, versionID: String) async throws {
        _ = try await send(AppStoreConnectRequest(
            .post, "/v1/reviewSubmissionItems",
            body: JSONAPI.document(type: "reviewSubmissionItems", relationships: [
                "reviewSubmission": JSONAPIIdentifier(type: "reviewSubmissions", id: submissionID).json,
                "appStoreVersion": JSONAPIIdentifier(type: "appStoreVersions", id: versionID).json,
            ]),
            action: "add App Store version \(versionID) to review submission \(submissionID)", roles: Self.releaseRoles, retry: .blindly))
    }

    /// Submits for review (`PATCH /v1/reviewSubmissions/{id}` with `submitted: true`); returns the new state.
    public func submitReviewSubmission(_ submissionID: String) async throws -> String {
        let answer = try await document(AppStoreConnectRequest(
            .patch, "/v1/reviewSubmissions/\(submissionID)",
            body: JSONAPI.document(type: "reviewSubmissions", id: submissionID, attributes: ["submitted": true]),
            action: "submit review submission \(submissionID) for App Review", roles: Self.releaseRoles, retry: .blindly))
        return answer.first?.string("state") ?? "WAITING_FOR_REVIEW"
    }
}
