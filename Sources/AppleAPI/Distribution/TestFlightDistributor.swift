import Foundation

/// Which build a flow works on: the id `appstore.upload` outputs, or the version and build number.
public enum BuildReference: Sendable, Hashable {
    /// A build id.
    case id(String)
    /// A build number, of a version when given.
    case number(version: String?, buildNumber: String)
}

/// What `TestFlightDistributor` should make true of a build.
public struct TestFlightDistribution: Sendable, Hashable {
    /// The build.
    public var build: BuildReference
    /// Beta group names (exact), internal or external.
    public var groups: [String]
    /// "What to Test" by locale.
    public var whatToTest: [String: String]
    /// The export-compliance answer to set, or nil to leave it.
    public var usesNonExemptEncryption: Bool?
    /// Submit for beta app review when an external group is among `groups`.
    public var submitForBetaReview: Bool
    /// Notify the testers when the build was added to a group.
    public var notifyTesters: Bool
    /// True when an interrupted run that this one continues (`--resume`) added the build to its
    /// groups and its notification was never accepted: it is sent even if the build is already
    /// in every group.
    public var notificationOwed: Bool

    /// Describes a distribution.
    public init(build: BuildReference, groups: [String], whatToTest: [String: String] = [:], usesNonExemptEncryption: Bool? = nil,
                submitForBetaReview: Bool = true, notifyTesters: Bool = false, notificationOwed: Bool = false) {
        self.build = build
        self.groups = groups
        self.whatToTest = whatToTest
        self.usesNonExemptEncryption = usesNonExemptEncryption
        self.submitForBetaReview = submitForBetaReview
        self.notifyTesters = notifyTesters
        self.notificationOwed = notificationOwed
    }

    /// Checks what needs no network: locales and text lengths.
    /// - Throws: `AppStoreDistributionError.unknownLocale` / `.textTooLong`.
    public func validate() throws {
        for (locale, text) in whatToTest.sorted(by: { $0.key < $1.key }) {
            try AppStoreLocales.check(locale)
            try AppStoreTextLimit.check(text, field: "What to Test", locale: locale)
        }
    }
}

/// What a distribution changed (and what it found already done).
public struct TestFlightDistributionResult: Sendable, Hashable {
    /// The build's id.
    public var buildID: String
    /// Groups the build was added to by this run.
    public var groupsAdded: [String] = []
    /// Groups that already had the build.
    public var groupsAlready: [String] = []
    /// Locales whose What to Test was created or changed.
    public var localizationsChanged: [String] = []
    /// True when the export-compliance answer was changed.
    public var complianceChanged = false
    /// `submitted`, `not needed`, or the state of an earlier submission (`WAITING_FOR_REVIEW`...).
    public var betaReview = "not needed"
    /// True when testers were notified by this run.
    public var notified: Bool { notification == .sent || notification == .sentOwed }
    /// What became of the notification.
    public var notification = TestFlightNotification.notRequested
}

/// Distributes a processed build through TestFlight: export compliance, "What to Test" per
/// locale, beta groups by name, beta app review when an external group needs it, and a tester
/// notification. Every change is looked up first, so running it again adds nothing twice; all
/// lookups that can refuse the input (the build, the group names) happen before any change.
///
/// A notification is owed from just before the build is added to its groups until Apple accepts
/// it; `owe` records that (in the run journal) so that `--resume` sends it.
public struct TestFlightDistributor: Sendable {
    let client: AppStoreConnectClient
    let log: @Sendable (String) -> Void
    let owe: @Sendable (Bool) throws -> Void

    /// A distributor over `client`, telling `log` what it does.
    /// - Parameter owe: records (true) or clears (false) that a tester notification is owed;
    ///   it must be stored before it returns (it throws when it cannot be).
    public init(client: AppStoreConnectClient, log: @escaping @Sendable (String) -> Void = { _ in },
                owe: @escaping @Sendable (Bool) throws -> Void = { _ in }) {
        self.client = client
        self.log = log
        self.owe = owe
    }

    /// Makes `distribution` true of its build of `app`.
    /// - Throws: `AppStoreDistributionError`, `AppStoreConnectError`.
    public func distribute(_ distribution: TestFlightDistribution, app: AppStoreConnectApp) async throws -> TestFlightDistributionResult {
        try distribution.validate()
        let build = try await findBuild(distribution.build, app: app)
        guard build.processingState == "VALID" else {
            throw AppStoreDistributionError.buildNotReady(buildID: build.id, processingState: build.processingState)
        }
        let groups = try await resolveGroups(distribution.groups, app: app)
        var result = TestFlightDistributionResult(buildID: build.id)

        if let wanted = distribution.usesNonExemptEncryption, build.usesNonExemptEncryption != wanted {
            try await client.setUsesNonExemptEncryption(buildID: build.id, wanted)
            result.complianceChanged = true
            log("export compliance of build \(build.id): usesNonExemptEncryption = \(wanted)")
        }
        result.localizationsChanged = try await setWhatToTest(distribution.whatToTest, buildID: build.id)

        let already = Set(try await client.betaGroups(appID: app.id, containing: build.id).map(\.id))
        let missing = groups.filter { !already.contains($0.id) }
        result.groupsAlready = groups.filter { already.contains($0.id) }.map(\.name)
        if !missing.isEmpty {
            // Owed before the write that makes "already in every group" true, so that an
            // interruption from here on cannot lose it.
            if distribution.notifyTesters && !distribution.notificationOwed { try owe(true) }
            try await client.addBuild(build.id, to: missing)
            result.groupsAdded = missing.map(\.name)
            log("added build \(build.buildNumber) to " + missing.map { "'\($0.name)'" }.joined(separator: ", "))
        }
        if !result.groupsAlready.isEmpty {
            log("build \(build.buildNumber) is already in " + result.groupsAlready.map { "'\($0)'" }.joined(separator: ", "))
        }

        if distribution.submitForBetaReview, groups.contains(where: { !$0.isInternal }) {
            if let earlier = try await client.betaReviewStates(buildID: build.id).first {
                result.betaReview = earlier
                log("build \(build.buildNumber) was already submitted for beta app review (\(earlier))")
            } else {
                result.betaReview = try await submitForBetaReview(build)
            }
        }
        result.notification = try await notify(distribution, build: build, added: !result.groupsAdded.isEmpty)
        return result
    }

    /// The build, by id or by number.
    func findBuild(_ reference: BuildReference, app: AppStoreConnectApp) async throws -> AppStoreConnectBuild {
        switch reference {
        case .id(let id):
            return try await client.build(id: id)
        case let .number(version, number):
            guard let build = try await client.build(appID: app.id, version: version, buildNumber: number) else {
                throw AppStoreDistributionError.buildNotFound(app: "'\(app.name)' (\(app.bundleID))", version: version, buildNumber: number)
            }
            return build
        }
    }

    /// The app's groups with these exact names.
    /// - Throws: `.unknownBetaGroups` listing the app's groups.
    func resolveGroups(_ names: [String], app: AppStoreConnectApp) async throws -> [BetaGroup] {
        guard !names.isEmpty else { return [] }
        let existing = try await client.betaGroups(appID: app.id)
        let missing = names.filter { name in !existing.contains { $0.name == name } }
        guard missing.isEmpty else {
            throw AppStoreDistributionError.unknownBetaGroups(missing: missing, existing: existing.map(\.name).sorted(),
                                                              app: "'\(app.name)' (\(app.bundleID))")
        }
        var seen = Set<String>()
        return names.compactMap { name in existing.first { $0.name == name } }.filter { seen.insert($0.id).inserted }
    }

    /// Creates or changes each locale's text; returns the locales changed.
    func setWhatToTest(_ texts: [String: String], buildID: String) async throws -> [String] {
        guard !texts.isEmpty else { return [] }
        let existing = try await client.betaBuildLocalizations(buildID: buildID)
        var changed: [String] = []
        for (locale, text) in texts.sorted(by: { $0.key < $1.key }) {
            if let current = existing[locale] {
                guard current.text != text else { continue }
                try await client.updateBetaBuildLocalization(id: current.id, locale: locale, text: text)
            } else {
                try await client.createBetaBuildLocalization(buildID: buildID, locale: locale, text: text)
            }
            changed.append(locale)
            log("What to Test (\(locale)) set: \(text.count) characters")
        }
        return changed
    }
}
