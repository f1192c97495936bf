import AppleAPI
import Foundation
import Testing
import TestSupport
import TestThreads

/// Which writes of a TestFlight distribution are retried after a 5xx: adding to groups blindly
/// (a repeat is harmless), the beta review submission only after looking it up, the tester
/// notification never (it stays owed for --resume).
@Suite("TestFlight writes after a 5xx", .dedicatedThreads)
struct TestFlightWriteRetryTests {
    let fixture: AppleAPIFixture
    let app: AppStoreConnectApp
    let buildID: String
    let owed = Recorder<Bool>()

    init() throws {
        fixture = try AppleAPIFixture()
        (app, buildID) = try fixture.seedReleasable()
    }

    var distributor: TestFlightDistributor {
        let owed = self.owed, log = fixture.log
        return TestFlightDistributor(client: fixture.client(attempts: 3), log: { log.append($0) }) { owed.append($0) }
    }

    func count(_ line: String, status: Int? = nil) throws -> Int {
        try fixture.fake.state().requests.filter { $0.line == line && (status == nil || $0.status == status) }.count
    }

    @Test func aRetriedBlindlyWriteAfterA5xxSucceedsOnce() async throws {
        let add = "POST /v1/builds/\(buildID)/relationships/betaGroups"
        try fixture.fake.inject(.status(500, method: "POST", path: "/relationships/betaGroups$", times: 1))
        let result = try await distributor.distribute(TestFlightDistribution(build: .id(buildID), groups: ["QA", "Public Beta"]), app: app)
        #expect(result.groupsAdded == ["QA", "Public Beta"])
        #expect(try count(add) == 2 && count(add, status: 500) == 1)
        #expect(try fixture.fake.stored("_betaGroupLinks").count == 2)
        #expect(fixture.log.values.contains("App Store Connect failed to add build \(buildID) to the beta groups 'QA', 'Public Beta' "
                                            + "(HTTP 500); retrying in 1 s (attempt 2 of 3)"))
        #expect(try fixture.fake.state().violations == [])
    }

    @Test func theNotificationAfterA5xxIsNotSentTwiceAndStaysOwed() async throws {
        let notify = "POST /v1/buildBetaNotifications"
        try fixture.fake.inject(.status(500, method: "POST", path: "/v1/buildBetaNotifications$", times: 1))
        let distribution = TestFlightDistribution(build: .id(buildID), groups: ["QA"], notifyTesters: true)
        do {
            _ = try await distributor.distribute(distribution, app: app)
            Issue.record("expected an error")
        } catch {
            #expect(error as? AppStoreDistributionError == .notificationNotAccepted(buildNumber: "42", buildID: buildID, reason: "HTTP 500"))
            #expect(error.localizedDescription == "App Store Connect did not accept the notification of the testers of build 42 "
                    + "(id \(buildID)): HTTP 500. It was not sent again, because a repeat could notify the testers twice; "
                    + "it stays owed in the run journal. Continue the run with --resume to send it.")
        }
        #expect(try count(notify) == 1)
        #expect(owed.values == [true], "owed before the build was added, never cleared")
        #expect(fixture.sleeps.values.isEmpty)

        // The resumed run finds the build in its group and sends what is owed, once.
        var resumed = distribution
        resumed.notificationOwed = true
        let result = try await distributor.distribute(resumed, app: app)
        #expect(result.groupsAdded.isEmpty && result.notification == .sentOwed && result.notified)
        #expect(try count(notify) == 2 && count(notify, status: 201) == 1)
        #expect(owed.values == [true, false])
        #expect(fixture.log.values.contains("notified the testers of build 42: the interrupted run this one resumes added it to its groups "
                                            + "but its notification was never accepted"))
        #expect(try fixture.fake.state().violations == [])
    }

    @Test func aPlainRerunDoesNotNotifyAgainAndSaysWhy() async throws {
        let distribution = TestFlightDistribution(build: .id(buildID), groups: ["QA"], notifyTesters: true)
        #expect(try await distributor.distribute(distribution, app: app).notification == .sent)
        let again = try await distributor.distribute(distribution, app: app)
        #expect(again.notification == .notAgain && !again.notified)
        #expect(fixture.log.values.contains("not notifying testers again: the build was already in every group, and no interrupted run "
                                            + "of this lane owes a notification (a plain re-run; --resume sends one an interrupted run owes)"))
        #expect(try count("POST /v1/buildBetaNotifications") == 1)
        #expect(owed.values == [true, false], "a run that adds nothing promises nothing")
    }

    @Test func anOwedNotificationWithNotifyOffIsClearedNotSent() async throws {
        let result = try await distributor.distribute(
            TestFlightDistribution(build: .id(buildID), groups: ["QA"], notifyTesters: false, notificationOwed: true), app: app)
        #expect(result.notification == .notRequested)
        #expect(owed.values == [false])
        #expect(try count("POST /v1/buildBetaNotifications") == 0)
    }

    @Test func theBetaReviewSubmissionIsLookedUpBeforeItIsSentAgain() async throws {
        let submit = "POST /v1/betaAppReviewSubmissions"
        try fixture.fake.inject(.status(500, method: "POST", path: "/v1/betaAppReviewSubmissions$", times: 1))
        let result = try await distributor.distribute(TestFlightDistribution(build: .id(buildID), groups: ["Public Beta"]), app: app)
        #expect(result.betaReview == "submitted")
        let lines = try fixture.fake.state().requests.map(\.line).filter { $0.contains("betaAppReviewSubmissions") }
        #expect(lines == ["GET /v1/betaAppReviewSubmissions", submit, "GET /v1/betaAppReviewSubmissions", submit])
        #expect(try count(submit, status: 201) == 1)
        #expect(fixture.log.values.contains("submitting build 42 for beta app review failed (HTTP 500) and Apple has no submission of it; "
                                            + "trying again in 1 s (attempt 2 of 3)"))
    }

    @Test func aBetaReviewSubmissionFailingEveryTimeGivesUpAfterTheAttempts() async throws {
        try fixture.fake.inject(.status(500, method: "POST", path: "/v1/betaAppReviewSubmissions$", times: 3))
        do {
            _ = try await distributor.distribute(TestFlightDistribution(build: .id(buildID), groups: ["Public Beta"]), app: app)
            Issue.record("expected an error")
        } catch {
            #expect(error.localizedDescription == "could not submit build \(buildID) for beta app review on App Store Connect after 3 attempts: "
                    + "HTTP 500. Apple's service may be down (https://developer.apple.com/system-status/); try again later.")
        }
        #expect(try count("POST /v1/betaAppReviewSubmissions") == 3)
    }

    @Test func aDroppedConnectionOnTheNotificationIsNotRetriedEither() async throws {
        try fixture.fake.inject(.drop(method: "POST", path: "/v1/buildBetaNotifications$"))
        do {
            _ = try await distributor.distribute(TestFlightDistribution(build: .id(buildID), groups: ["QA"], notifyTesters: true), app: app)
            Issue.record("expected an error")
        } catch let AppStoreDistributionError.notificationNotAccepted(number, id, _) {
            #expect(number == "42" && id == buildID)
        }
        #expect(try count("POST /v1/buildBetaNotifications") == 1)
        #expect(owed.values == [true])
    }

    @Test func whenTheOwedNotificationCannotBeRecordedNothingIsAdded() async throws {
        struct JournalFull: Error {}
        let failing = TestFlightDistributor(client: fixture.client(), owe: { _ in throw JournalFull() })
        await #expect(throws: JournalFull.self) {
            try await failing.distribute(TestFlightDistribution(build: .id(buildID), groups: ["QA"], notifyTesters: true), app: app)
        }
        #expect(try fixture.changes().isEmpty, "the promise is recorded before the first write that makes it")
        #expect(try fixture.fake.stored("_betaGroupLinks").isEmpty)
    }
}
