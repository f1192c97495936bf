import Foundation

/// What `AppStoreSubmitter` should make true of an App Store version.
public struct AppStoreSubmission: Sendable, Hashable {
    /// The release types Apple accepts.
    public static let releaseTypes = ["MANUAL", "AFTER_APPROVAL", "SCHEDULED"]

    /// The version string, e.g. `1.4.0`.
    public var version: String
    /// IOS, MAC_OS, TV_OS or VISION_OS.
    public var platform: String
    /// The build to attach.
    public var build: BuildReference
    /// "What's New" by locale.
    public var whatsNew: [String: String]
    /// MANUAL, AFTER_APPROVAL or SCHEDULED; nil leaves it.
    public var releaseType: String?
    /// For SCHEDULED: ISO 8601, e.g. `2025-06-01T09:00:00Z`.
    public var earliestReleaseDate: String?
    /// True: phased release on; false: off; nil: leave it.
    public var phasedRelease: Bool?
    /// Submit for App Review after preparing the version.
    public var submitForReview: Bool

    /// Describes a submission.
    public init(version: String, platform: String = "IOS", build: BuildReference, whatsNew: [String: String] = [:],
                releaseType: String? = nil, earliestReleaseDate: String? = nil, phasedRelease: Bool? = nil, submitForReview: Bool = true) {
        self.version = version
        self.platform = platform
        self.build = build
        self.whatsNew = whatsNew
        self.releaseType = releaseType
        self.earliestReleaseDate = earliestReleaseDate
        self.phasedRelease = phasedRelease
        self.submitForReview = submitForReview
    }

    /// Checks what needs no network: locales, text lengths, the release date.
    /// - Throws: `AppStoreDistributionError`.
    public func validate() throws {
        for (locale, text) in whatsNew.sorted(by: { $0.key < $1.key }) {
            try AppStoreLocales.check(locale)
            try AppStoreTextLimit.check(text, field: "What's New", locale: locale)
        }
        if releaseType == "SCHEDULED", earliestReleaseDate == nil { throw AppStoreDistributionError.missingReleaseDate }
    }
}

/// What a submission changed, and where it stands.
public struct AppStoreSubmissionResult: Sendable, Hashable {
    /// The App Store version's id.
    public var versionID: String
    /// True when this run created the version.
    public var versionCreated = false
    /// The build attached.
    public var buildID: String
    /// True when this run attached the build.
    public var buildAttached = false
    /// Locales whose release notes were created or changed.
    public var localizationsChanged: [String] = []
    /// `created`, `removed` or nil (left as it was).
    public var phasedRelease: String?
    /// The review submission's id (empty when not submitted).
    public var reviewSubmissionID = ""
    /// The version's or submission's state at the end, e.g. WAITING_FOR_REVIEW.
    public var state: String
    /// True when the version had been submitted with this build before; nothing was changed.
    public var alreadySubmitted = false
}

/// Prepares an App Store version and submits it for review: finds or creates the version for
/// the platform, attaches the build, sets "What's New" per locale, the release type and phased
/// release, then submits through a review submission (an open draft for the app and platform is
/// reused). Looks before it changes anything, so a re-run never makes a second version or
/// submission; a version already submitted with the same build is left alone.
public struct AppStoreSubmitter: Sendable {
    let client: AppStoreConnectClient
    let log: @Sendable (String) -> Void

    /// A submitter over `client`, telling `log` what it does.
    public init(client: AppStoreConnectClient, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.client = client
        self.log = log
    }

    /// Makes `submission` true for `app`.
    /// - Throws: `AppStoreDistributionError`, `AppStoreConnectError`.
    public func submit(_ submission: AppStoreSubmission, app: AppStoreConnectApp) async throws -> AppStoreSubmissionResult {
        try submission.validate()
        let reference: BuildReference
        if case let .number(nil, number) = submission.build { reference = .number(version: submission.version, buildNumber: number) } else {
            reference = submission.build
        }
        let build = try await TestFlightDistributor(client: client).findBuild(reference, app: app)
        guard build.processingState == "VALID" else {
            throw AppStoreDistributionError.buildNotReady(buildID: build.id, processingState: build.processingState)
        }
        let (version, created) = try await findOrCreateVersion(submission, app: app)
        var result = AppStoreSubmissionResult(versionID: version.id, versionCreated: created, buildID: build.id, state: version.state)
        let attached = try await client.attachedBuildID(versionID: version.id)
        guard version.isEditable else {
            guard attached == build.id else {
                throw AppStoreDistributionError.versionHasOtherBuild(version: version.versionString, state: version.state,
                                                                     attachedBuildID: attached, buildID: build.id)
            }
            result.alreadySubmitted = true
            log("App Store version \(version.versionString) is already \(version.state) with build \(build.buildNumber); nothing to change")
            return result
        }
        if !created, let type = submission.releaseType,
           version.releaseType != type || (type == "SCHEDULED" && version.earliestReleaseDate != submission.earliestReleaseDate) {
            try await client.setReleaseType(versionID: version.id, type, earliestReleaseDate: type == "SCHEDULED" ? submission.earliestReleaseDate : nil)
            log("release type of \(version.versionString): \(type)")
        }
        if attached != build.id {
            try await client.attachBuild(build.id, toVersion: version.id)
            result.buildAttached = true
            log("attached build \(build.buildNumber) to App Store version \(version.versionString)")
        }
        result.localizationsChanged = try await setWhatsNew(submission.whatsNew, versionID: version.id)
        result.phasedRelease = try await setPhasedRelease(submission.phasedRelease, versionID: version.id)
        if submission.submitForReview {
            let (id, state) = try await submitForReview(versionID: version.id, app: app, platform: submission.platform)
            result.reviewSubmissionID = id
            result.state = state
        }
        return result
    }

    private func findOrCreateVersion(_ submission: AppStoreSubmission, app: AppStoreConnectApp) async throws -> (AppStoreVersion, Bool) {
        if let existing = try await client.appStoreVersions(appID: app.id, version: submission.version, platform: submission.platform)
            .first(where: { $0.versionString == submission.version && $0.platform == submission.platform }) {
            log("found App Store version \(existing.versionString) (\(existing.platform)): \(existing.state)")
            return (existing, false)
        }
        let made = try await client.createAppStoreVersion(appID: app.id, version: submission.version, platform: submission.platform,
                                                          releaseType: submission.releaseType,
                                                          earliestReleaseDate: submission.releaseType == "SCHEDULED" ? submission.earliestReleaseDate : nil)
        log("created App Store version \(made.versionString) (\(made.platform))")
        return (made, true)
    }

    private func setWhatsNew(_ texts: [String: String], versionID: String) async throws -> [String] {
        guard !texts.isEmpty else { return [] }
        let existing = try await client.versionLocalizations(versionID: versionID)
        var changed: [String] = []
        for (locale, text) in texts.sorted(by: { $0.key < $1.key }) {
            if let current = existing[locale] {
                guard current.text != text else { continue }
                try await client.updateVersionLocalization(id: current.id, locale: locale, whatsNew: text)
            } else {
                try await client.createVersionLocalization(versionID: versionID, locale: locale, whatsNew: text)
            }
            changed.append(locale)
            log("What's New (\(locale)) set: \(text.count) characters")
        }
        return changed
    }

    private func setPhasedRelease(_ wanted: Bool?, versionID: String) async throws -> String? {
        guard let wanted else { return nil }
        let current = try await client.phasedRelease(versionID: versionID)
        if wanted, current == nil {
            try await client.createPhasedRelease(versionID: versionID)
            log("phased release turned on (7 days, starting at release)")
            return "created"
        }
        if !wanted, let current, current.state == "INACTIVE" {
            try await client.deletePhasedRelease(id: current.id)
            log("phased release turned off")
            return "removed"
        }
        return nil
    }

    /// Reuses a submission that already holds the version (or an open draft), else opens one;
    /// adds the version when missing; submits when still a draft.
    private func submitForReview(versionID: String, app: AppStoreConnectApp, platform: String) async throws -> (String, String) {
        let open = try await client.openReviewSubmissions(appID: app.id, platform: platform)
        var holding: ReviewSubmission?
        for candidate in open {
            if try await client.reviewSubmissionVersionIDs(submissionID: candidate.id).contains(versionID) {
                holding = candidate
                break
            }
        }
        if let holding, !holding.isDraft {
            log("review submission \(holding.id) is already \(holding.state)")
            return (holding.id, holding.state)
        }
        var draft: ReviewSubmission
        if let holding { draft = holding } else if let reusable = open.first(where: \.isDraft) { draft = reusable } else {
            draft = try await client.createReviewSubmission(appID: app.id, platform: platform)
            log("opened review submission \(draft.id)")
        }
        if holding == nil {
            try await client.addToReviewSubmission(draft.id, versionID: versionID)
        }
        draft.state = try await client.submitReviewSubmission(draft.id)
        log("submitted review submission \(draft.id) for App Review: \(draft.state)")
        return (draft.id, draft.state)
    }
}
