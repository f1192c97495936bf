import Basics
import Foundation
import Networking
@testable import Publish
import TestSupport
import TestThreads
import Testing
import Transport

/// The GitHub Releases client against `GitHubContractFake`: a loopback CONTRACT FAKE of the
/// documented endpoints (there is no GitHub here). These tests check that the client follows
/// the documented contract; they cannot show that GitHub itself behaves as documented.
@Suite(.serialized, .dedicatedThreads) struct GitHubReleaseContractFakeTests {
    struct Fixture {
        let fake: GitHubContractFake
        let folder: TemporaryDirectory
        let sleeps = SleepRecorder()

        init() throws {
            fake = try GitHubContractFake()
            folder = try TemporaryDirectory(prefix: "slipway-github")
        }

        func uploader(tag: String = "v1.0.0", replace: Bool = false, draft: Bool = false, token: String? = nil) -> GitHubReleaseUploader {
            let client = GitHubReleaseClient(apiURL: fake.apiURL, uploadURL: fake.uploadURL, repository: "octo/app",
                                             token: token ?? fake.token,
                                             http: RetryingHTTPClient(client: SystemHTTPClient(), policy: sleeps.policy()))
            return GitHubReleaseUploader(client: client, release: GitHubReleaseDraft(tag: tag, notes: "notes", draft: draft), replace: replace)
        }

        func file(_ name: String, _ text: String) throws -> UploadFile {
            let path = try folder.write(name, text)
            return UploadFile(path: path, name: name, size: Int64(text.utf8.count))
        }
    }

    @Test func contractFakeCreatesTheReleaseAndUploadsAssets() async throws {
        let fixture = try Fixture()
        let files = [try fixture.file("app.tar.gz", "tarball"), try fixture.file("app.tar.gz.sig", "signature")]
        let outcomes = try await fixture.uploader().upload(files, progress: nil)
        #expect(outcomes.map(\.action) == [.uploaded, .uploaded])
        #expect(outcomes[0].url == "https://github.example/octo/app/releases/download/v1.0.0/app.tar.gz")
        let state = try fixture.fake.state()
        #expect(state.releases.map(\.tag_name) == ["v1.0.0"])
        #expect(state.assets.map(\.name) == ["app.tar.gz", "app.tar.gz.sig"])
        #expect(state.assets.map(\.content_type) == ["application/gzip", "text/plain; charset=utf-8"])
        let releaseID = try #require(state.releases.first?.id)
        #expect(state.requests == [
            "GET /repos/octo/app/releases/tags/v1.0.0",
            "GET /repos/octo/app/releases?per_page=100&page=1",
            "POST /repos/octo/app/releases",
            "POST /uploads/repos/octo/app/releases/\(releaseID)/assets?name=app.tar.gz",
            "POST /uploads/repos/octo/app/releases/\(releaseID)/assets?name=app.tar.gz.sig",
        ])
    }

    @Test func contractFakeRerunReusesTheReleaseAndSkipsAssets() async throws {
        let fixture = try Fixture()
        let files = [try fixture.file("app.zip", "zip")]
        _ = try await fixture.uploader().upload(files, progress: nil)
        let before = try fixture.fake.state().requests.count
        let outcomes = try await fixture.uploader().upload(files, progress: nil)
        #expect(outcomes.map(\.action) == [.skipped])
        let state = try fixture.fake.state()
        #expect(state.releases.count == 1)
        #expect(state.assets.count == 1)
        #expect(state.requests.dropFirst(before).allSatisfy { $0.hasPrefix("GET ") })
    }

    @Test func contractFakeReplaceDeletesAndUploadsAgain() async throws {
        let fixture = try Fixture()
        _ = try await fixture.uploader().upload([try fixture.file("app.zip", "one")], progress: nil)
        let oldID = try #require(try fixture.fake.state().assets.first?.id)
        let changed = try fixture.file("app.zip", "a longer two")
        await #expect(throws: PublishError.destinationDiffers(path: "release 'v1.0.0' of octo/app, asset 'app.zip'", option: "replace")) {
            _ = try await fixture.uploader().upload([changed], progress: nil)
        }
        #expect(try fixture.fake.state().assets.map(\.id) == [oldID])
        let outcomes = try await fixture.uploader(replace: true).upload([changed], progress: nil)
        #expect(outcomes.map(\.action) == [.replaced])
        let state = try fixture.fake.state()
        #expect(state.assets.count == 1)
        #expect(state.assets.first?.size == 12)
        #expect(state.requests.contains("DELETE /repos/octo/app/releases/assets/\(oldID)"))
    }

    @Test func contractFakeDraftReleasesAreFoundAndReused() async throws {
        let fixture = try Fixture()
        let draftID = try fixture.fake.seedRelease(repository: "octo/app", tag: "v2.0.0", draft: true)
        _ = try await fixture.uploader(tag: "v2.0.0", draft: true).upload([try fixture.file("a.txt", "a")], progress: nil)
        let state = try fixture.fake.state()
        #expect(state.releases.count == 1)
        #expect(state.assets.map(\.release_id) == [draftID])
    }

    @Test func contractFakeServerErrorsAreRetriedAndBadTokensAreNot() async throws {
        let fixture = try Fixture()
        try fixture.fake.failUploads(2)
        let outcomes = try await fixture.uploader().upload([try fixture.file("a.txt", "a")], progress: nil)
        #expect(outcomes.map(\.action) == [.uploaded])
        #expect(fixture.sleeps.waits.count == 2)
        let other = try Fixture()
        do {
            _ = try await other.uploader(token: "wrong").upload([try other.file("a.txt", "a")], progress: nil)
            Issue.record("expected a failure")
        } catch {
            #expect(errorText(error) == "GET '\(other.fake.apiURL)/repos/octo/app/releases/tags/v1.0.0' was refused: HTTP 401 "
                + "({\"message\": \"Bad credentials\", \"documentation_url\": \"https://docs.github.com/rest\"}). "
                + "Check the credentials, permissions and URL; 4xx answers are not retried.")
        }
        #expect(other.sleeps.waits.isEmpty)
        #expect(try other.fake.state().releases.isEmpty)
    }
}
