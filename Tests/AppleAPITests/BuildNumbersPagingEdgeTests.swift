import AppleAPI
import Foundation
import TestSupport
import TestThreads
import Testing

/// Issue 42: `AppStoreConnectClient.buildNumbers` (the `appstore.build-number` step,
/// `version.bump`'s check) reads every page: a build number need not rise with the upload time,
/// so the highest can be on a page the newest 200 uploads do not reach.
@Suite("Build numbers: every page (issue 42)", .dedicatedThreads)
struct BuildNumbersPagingEdgeTests {
    let fixture: AppleAPIFixture
    let appID: String

    init() throws {
        fixture = try AppleAPIFixture()
        appID = try fixture.fake.seedApp(bundleID: "com.example.app", name: "Example")
        // The highest number was uploaded first (a hotfix branch, a reset counter): sorted
        // newest first, it is the 201st upload, on the second page of 200.
        // All 202 in one request (the fake seeds a list at once).
        var uploads = [upload("900", date: "2025-01-01T00:00:00+00:00")]
        for index in 1...200 { uploads.append(upload(String(index), date: String(format: "2026-01-01T00:%02d:%02d+00:00", index / 60, index % 60))) }
        uploads.append(upload("950", date: "2024-06-01T00:00:00+00:00", state: "FAILED"))
        _ = try fixture.fake.seed(uploads)
    }

    func upload(_ build: String, version: String = "1.4.0", date: String, state: String = "COMPLETE")
        -> (type: String, attributes: String, relationships: [String: String]) {
        ("buildUploads", "{\"cfBundleShortVersionString\": \"\(version)\", \"cfBundleVersion\": \"\(build)\", \"platform\": \"IOS\", "
            + "\"createdDate\": \"\(date)\", \"uploadedDate\": \"\(date)\", "
            + "\"state\": {\"state\": \"\(state)\", \"errors\": [], \"warnings\": [], \"infos\": []}}",
         ["app": "{\"type\": \"apps\", \"id\": \"\(appID)\"}"])
    }

    /// One test, so that the 202 uploads are seeded once.
    @Test func theHighestNumberOnTheSecondPageIsFoundAndNoPartIsTakenForTheWhole() async throws {
        let numbers = try await fixture.client().buildNumbers(appID: appID, version: "1.4.0", platform: "IOS")
        #expect(numbers == BuildNumbers(latest: "900"), "the newest 200 uploads alone say 200")
        #expect(numbers.next == "901")
        let state = try fixture.fake.state()
        #expect(state.requests.filter { $0.path == "/v1/apps/\(appID)/buildUploads" }.count == 2, "two pages of uploads")
        #expect(state.violations == [])

        // More pages than the cap: an error that says so, never the highest of a part.
        await #expect {
            _ = try await fixture.client().buildNumbers(appID: appID, version: "1.4.0", pageLimit: 1)
        } throws: { error in
            (error as? AppStoreConnectPagingError)?.localizedDescription
                == "App Store Connect lists more build uploads of app \(appID) version 1.4.0 than slipway reads: 1 page (200 items) read, "
                + "and a next page remains. slipway does not answer from a part of them (the highest could be on a page not read): "
                + "narrow the question (give the version, or the platform)."
        }

        // A build listed only under /v1/builds (uploaded before the Build Uploads API) counts too.
        _ = try fixture.fake.seedBuild(appID: appID, version: "1.4.0", buildNumber: "1000")
        #expect(try await fixture.client().buildNumbers(appID: appID, version: "1.4.0") == BuildNumbers(latest: "1000"))
        #expect(try fixture.fake.state().violations == [])
    }
}
