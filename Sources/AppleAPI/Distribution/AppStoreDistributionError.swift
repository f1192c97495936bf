import Foundation

/// Why TestFlight distribution or an App Store submission could not go ahead. Each message names
/// the subject and says what to do.
public enum AppStoreDistributionError: Error, LocalizedError, Sendable, Equatable {
    /// A locale code App Store Connect does not accept, with the closest accepted ones.
    case unknownLocale(String, suggestions: [String])
    /// "What to Test" or "What's New" over Apple's limit.
    case textTooLong(field: String, locale: String, characters: Int, limit: Int)
    /// Beta groups that the app does not have, with the ones it has.
    case unknownBetaGroups(missing: [String], existing: [String], app: String)
    /// No build with this version and build number.
    case buildNotFound(app: String, version: String?, buildNumber: String)
    /// The build is not processed yet (or failed processing).
    case buildNotReady(buildID: String, processingState: String)
    /// SCHEDULED needs an earliest release date.
    case missingReleaseDate
    /// The App Store version was already submitted with another build.
    case versionHasOtherBuild(version: String, state: String, attachedBuildID: String?, buildID: String)
    /// Apple answered without what the flow needs.
    case unexpectedAnswer(step: String, problem: String)
    /// The tester notification failed with a 5xx or a dropped connection; it is not retried
    /// (a repeat notifies twice) and stays owed in the run journal.
    case notificationNotAccepted(buildNumber: String, buildID: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case let .unknownLocale(code, suggestions):
            let hint = suggestions.isEmpty ? ""
                : suggestions.count == 1 ? " Did you mean '\(suggestions[0])'?"
                : " Did you mean one of " + suggestions.map { "'\($0)'" }.joined(separator: ", ") + "?"
            return "'\(code)' is not a locale App Store Connect accepts (codes are case-sensitive).\(hint) "
                + "The accepted codes are listed in docs/appstore.md."
        case let .textTooLong(field, locale, count, limit):
            return "\(field) for '\(locale)' is \(count) characters; App Store Connect accepts at most \(limit). "
                + "Shorten it (or give a shorter text for this locale)."
        case let .unknownBetaGroups(missing, existing, app):
            let list = existing.isEmpty ? "it has none: create one in App Store Connect → TestFlight first"
                : "its groups are " + existing.map { "'\($0)'" }.joined(separator: ", ")
            return "no beta group named " + missing.map { "'\($0)'" }.joined(separator: ", ")
                + " on \(app) (\(list)). Group names are matched exactly; correct the name in groups."
        case let .buildNotFound(app, version, buildNumber):
            return "\(app) has no build \(buildNumber)\(version.map { " of version \($0)" } ?? "") on App Store Connect. "
                + "Upload it first (appstore.upload), or pass the build id its 'build-id' output gives."
        case let .buildNotReady(buildID, state):
            return state == "PROCESSING"
                ? "build \(buildID) is still processing on App Store Connect. Wait for it (appstore.upload's wait-for-processing) and run again."
                : "build \(buildID) finished processing as \(state), so it cannot be distributed. Fix the build and upload a new build number."
        case .missingReleaseDate:
            return "release-type SCHEDULED needs earliest-release-date (e.g. 2025-06-01T09:00:00Z)."
        case let .versionHasOtherBuild(version, state, attached, buildID):
            return "App Store version \(version) is already \(state) with build \(attached ?? "none"), not build \(buildID). "
                + "Cancel that submission in App Store Connect first, or submit a new version."
        case let .unexpectedAnswer(step, problem):
            return "App Store Connect's answer to \(step) lacks what Slipway needs: \(problem)."
        case let .notificationNotAccepted(number, id, reason):
            return "App Store Connect did not accept the notification of the testers of build \(number) (id \(id)): \(reason). "
                + "It was not sent again, because a repeat could notify the testers twice; it stays owed in the run journal. "
                + "Continue the run with --resume to send it."
        }
    }
}
