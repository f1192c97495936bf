import AppleAPI
import Foundation
import Testing
import TestSupport
import TestThreads

@Suite("App Store submission against the contract fake", .dedicatedThreads)
struct AppStoreSubmitTests {
    let fixture: AppleAPIFixture
    let app: AppStoreConnectApp
    let buildID: String

    init() throws {
        fixture = try AppleAPIFixture()
        (app, buildID) = try fixture.seedReleasable()
    }

    var submitter: AppStoreSubmitter { AppStoreSubmitter(client: fixture.client()) }

    func submission(submit: Bool = true) -> AppStoreSubmission {
        AppStoreSubmission(version: "1.2.0", build: .id(buildID), whatsNew: ["en-US": "Offline mode.", "ja": "オフライン"],
                           releaseType: "MANUAL", phasedRelease: true, submitForReview: submit)
    }

    @Test func submitsOnceAndARerunChangesNothing() async throws {
        let first = try await submitter.submit(submission(), app: app)
        #expect(first.versionCreated && first.buildAttached && first.phasedRelease == "created")
        #expect(first.localizationsChanged == ["en-US", "ja"])
        #expect(first.state == "WAITING_FOR_REVIEW" && !first.reviewSubmissionID.isEmpty)

        let second = try await submitter.submit(submission(), app: app)
        #expect(second.alreadySubmitted && !second.versionCreated && second.versionID == first.versionID)
        #expect(second.state == "WAITING_FOR_REVIEW")

        #expect(try fixture.changes() == [
            "POST /v1/appStoreVersions", "PATCH /v1/appStoreVersions/\(first.versionID)/relationships/build",
            "POST /v1/appStoreVersionLocalizations", "POST /v1/appStoreVersionLocalizations", "POST /v1/appStoreVersionPhasedReleases",
            "POST /v1/reviewSubmissions", "POST /v1/reviewSubmissionItems", "PATCH /v1/reviewSubmissions/\(first.reviewSubmissionID)",
        ])
        let version = try #require(try fixture.fake.stored("appStoreVersions").first)
        #expect((version["attributes"] as? [String: Any])?["releaseType"] as? String == "MANUAL")
        #expect(try fixture.fake.state().violations == [])
    }

    @Test func preparedFirstThenSubmittedReusesTheVersion() async throws {
        let prepared = try await submitter.submit(submission(submit: false), app: app)
        #expect(prepared.state == "PREPARE_FOR_SUBMISSION" && prepared.reviewSubmissionID.isEmpty)
        let submitted = try await submitter.submit(submission(), app: app)
        #expect(!submitted.versionCreated && !submitted.buildAttached && submitted.localizationsChanged.isEmpty)
        #expect(submitted.phasedRelease == nil && submitted.state == "WAITING_FOR_REVIEW")
        #expect(try fixture.changes().filter { $0 == "POST /v1/appStoreVersions" }.count == 1)
        #expect(try fixture.fake.state().violations == [])
    }

    @Test func anExistingDraftVersionAndSubmissionAreReused() async throws {
        let appLink = #"{"type": "apps", "id": "\#(app.id)"}"#
        let version = try fixture.fake.seed("appStoreVersions", attributes: #"{"versionString": "1.2.0", "platform": "IOS", "appVersionState": "PREPARE_FOR_SUBMISSION", "appStoreState": "PREPARE_FOR_SUBMISSION", "releaseType": "AFTER_APPROVAL", "earliestReleaseDate": null}"#,
                                            relationships: ["app": appLink, "build": "null"])
        let draft = try fixture.fake.seed("reviewSubmissions", attributes: #"{"platform": "IOS", "state": "READY_FOR_REVIEW", "submittedDate": null}"#,
                                          relationships: ["app": appLink])
        let result = try await submitter.submit(AppStoreSubmission(version: "1.2.0", build: .number(version: nil, buildNumber: "42"),
                                                                   releaseType: "MANUAL", phasedRelease: false), app: app)
        #expect(result.versionID == version && result.reviewSubmissionID == draft && result.state == "WAITING_FOR_REVIEW")
        #expect(try fixture.changes() == [
            "PATCH /v1/appStoreVersions/\(version)", "PATCH /v1/appStoreVersions/\(version)/relationships/build",
            "POST /v1/reviewSubmissionItems", "PATCH /v1/reviewSubmissions/\(draft)",
        ])
        #expect(try fixture.fake.state().violations == [])
    }

    @Test func aVersionSubmittedWithAnotherBuildIsNamed() async throws {
        _ = try await submitter.submit(submission(), app: app)
        let appLink = #"{"type": "apps", "id": "\#(app.id)"}"#
        let other = try fixture.fake.seed("builds", attributes: #"{"version": "43", "processingState": "VALID", "expired": false}"#,
                                          relationships: ["app": appLink])
        do {
            _ = try await submitter.submit(AppStoreSubmission(version: "1.2.0", build: .id(other)), app: app)
            Issue.record("expected an error")
        } catch {
            #expect(error.localizedDescription.hasPrefix("App Store version 1.2.0 is already WAITING_FOR_REVIEW with build \(buildID), not build \(other). "))
        }
    }

    @Test func scheduledWithoutADateSendsNothing() async throws {
        do {
            _ = try await submitter.submit(AppStoreSubmission(version: "1.2.0", build: .id(buildID), releaseType: "SCHEDULED"), app: app)
            Issue.record("expected an error")
        } catch {
            #expect(error.localizedDescription == "release-type SCHEDULED needs earliest-release-date (e.g. 2025-06-01T09:00:00Z).")
        }
        do {
            _ = try await submitter.submit(AppStoreSubmission(version: "1.2.0", build: .id(buildID), whatsNew: ["english": "x"]), app: app)
            Issue.record("expected an error")
        } catch {
            #expect(error.localizedDescription.hasPrefix("'english' is not a locale App Store Connect accepts"))
        }
        #expect(try fixture.fake.state().requests.isEmpty)
    }
}
