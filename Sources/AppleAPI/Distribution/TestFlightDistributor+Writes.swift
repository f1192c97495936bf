import Foundation

/// What became of a distribution's tester notification.
public enum TestFlightNotification: String, Sendable, Hashable {
    /// `notify` was off.
    case notRequested = "not requested"
    /// Sent because this run added the build to a group.
    case sent
    /// Sent because the interrupted run this one resumes added the build and owed it.
    case sentOwed = "sent (owed by the resumed run)"
    /// Not sent: the build was already in every group and nothing was owed (a plain re-run).
    case notAgain = "not sent again"
}

/// The writes that may not be repeated blindly: the beta review submission (checked first) and
/// the tester notification (never retried; owed until Apple accepts it).
extension TestFlightDistributor {
    /// Submits the build for beta app review. A 5xx or dropped connection is not retried blindly:
    /// the build's submissions are looked up first, and only when there is none is it sent again
    /// (up to the retry policy's attempts). Returns "submitted" or the found submission's state.
    func submitForBetaReview(_ build: AppStoreConnectBuild) async throws -> String {
        var failures = 0
        while true {
            do {
                _ = try await client.submitForBetaReview(buildID: build.id)
                log("submitted build \(build.buildNumber) for beta app review (external groups need it)")
                return "submitted"
            } catch AppStoreConnectError.notRetried(let action, let reason) {
                failures += 1
                if let state = try await client.betaReviewStates(buildID: build.id).first {
                    log("submitting build \(build.buildNumber) for beta app review failed (\(reason)), but Apple has the submission (\(state))")
                    return state
                }
                guard failures < client.retry.attempts else {
                    throw AppStoreConnectError.unavailable(action: action, attempts: failures, reason: reason)
                }
                let wait = client.retry.delay(beforeRetry: failures)
                log("submitting build \(build.buildNumber) for beta app review failed (\(reason)) and Apple has no submission of it; "
                    + "trying again in \(AppStoreConnectClient.format(wait)) (attempt \(failures + 1) of \(client.retry.attempts))")
                try await client.retry.sleep(wait)
            }
        }
    }

    /// Sends the notification when this run added the build to a group or an earlier run owes
    /// it; clears what is owed once Apple accepts it. A 5xx or dropped connection leaves it owed.
    func notify(_ distribution: TestFlightDistribution, build: AppStoreConnectBuild, added: Bool) async throws -> TestFlightNotification {
        let owedEarlier = distribution.notificationOwed
        guard distribution.notifyTesters else {
            if owedEarlier {
                log("an interrupted run owed the testers of build \(build.buildNumber) a notification, but notify is off now: not notifying")
                try owe(false)
            }
            return .notRequested
        }
        guard added || owedEarlier else {
            log("not notifying testers again: the build was already in every group, and no interrupted run of this lane "
                + "owes a notification (a plain re-run; --resume sends one an interrupted run owes)")
            return .notAgain
        }
        do {
            try await client.notifyBetaTesters(buildID: build.id)
        } catch AppStoreConnectError.notRetried(_, let reason) {
            throw AppStoreDistributionError.notificationNotAccepted(buildNumber: build.buildNumber, buildID: build.id, reason: reason)
        }
        try owe(false)
        if added {
            log("notified the testers of build \(build.buildNumber)")
            return .sent
        }
        log("notified the testers of build \(build.buildNumber): the interrupted run this one resumes added it to its groups "
            + "but its notification was never accepted")
        return .sentOwed
    }
}
