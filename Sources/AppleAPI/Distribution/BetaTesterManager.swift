import Basics
import Foundation

/// What happened to one tester (or, in a dry run, would).
public struct BetaTesterOutcome: Sendable, Hashable {
    /// What is done.
    public enum Action: String, Sendable, Hashable {
        /// A new tester, invited into groups.
        case invited
        /// A known tester, added to groups it was not in.
        case addedToGroups = "added to groups"
        /// A known tester already in every group named: nothing sent.
        case alreadyInGroups = "already in the groups"
        /// Removed from groups.
        case removedFromGroups = "removed from groups"
        /// Removed from the app and all its groups.
        case removedFromApp = "removed from the app"
        /// Not a tester of the app (or not in the groups named): nothing sent.
        case notATester = "not a tester"
    }

    /// The tester as asked for.
    public var entry: BetaTesterEntry
    /// What is done.
    public var action: Action
    /// The groups changed (by name).
    public var groups: [String]
    /// The groups named that needed nothing (already in, or not in for a removal).
    public var unchanged: [String]
}

/// Adds and removes TestFlight testers of one app, as pilot does, but idempotently: a tester
/// already in a group is not invited again, and every group name is checked before anything is sent.
public struct BetaTesterManager: Sendable {
    /// The client.
    public let client: AppStoreConnectClient
    /// The app's id.
    public let appID: String
    /// The app, for messages: "'Name' (com.example.app)".
    public let appLabel: String

    /// Creates a manager.
    public init(client: AppStoreConnectClient, appID: String, appLabel: String) {
        self.client = client
        self.appID = appID
        self.appLabel = appLabel
    }

    /// The app's groups with these names, or `BetaTesterInputError.unknownGroups` naming each
    /// unknown one (with the row that named it).
    public func groups(named wanted: [(name: String, location: String?)]) async throws -> [String: BetaGroup] {
        let all = try await client.betaGroups(appID: appID)
        var byName: [String: BetaGroup] = [:]
        for group in all { byName[group.name] = group }
        var problems: [String] = [], reported = Set<String>()
        for (name, location) in wanted where byName[name] == nil && reported.insert(name + (location ?? "")).inserted {
            problems.append("\(location.map { $0 + ": " } ?? "")no beta group '\(name)' in \(appLabel)")
        }
        guard problems.isEmpty else {
            throw BetaTesterInputError.unknownGroups(problems: problems, app: appLabel, available: all.map(\.name).sorted())
        }
        return byName
    }

    /// Adds each tester to its groups: invites new ones, adds known ones to the groups they are
    /// not in, leaves the rest. Every group is checked first (nothing sent when one is unknown).
    /// - Throws: `BetaTesterInputError.unknownGroups`; `AppStoreConnectError`; when testers were
    ///   handled before a failure, `BetaTesterInputError.stopped` with them.
    public func add(_ entries: [BetaTesterEntry], dryRun: Bool) async throws -> [BetaTesterOutcome] {
        let groups = try await groups(named: entries.flatMap { entry in entry.groups.map { ($0, entry.location) } })
        var known: [String: BetaTester] = [:]
        for tester in try await client.betaTesters(appID: appID) { known[tester.email.lowercased()] = tester }
        var outcomes: [BetaTesterOutcome] = []
        do {
            try await add(entries, groups: groups, known: known, dryRun: dryRun, into: &outcomes)
        } catch where !outcomes.isEmpty {
            throw BetaTesterInputError.stopped(done: outcomes, reason: errorText(error))
        }
        return outcomes
    }

    private func add(_ entries: [BetaTesterEntry], groups: [String: BetaGroup], known: [String: BetaTester], dryRun: Bool,
                     into outcomes: inout [BetaTesterOutcome]) async throws {
        for entry in entries {
            let targets = entry.groups.compactMap { groups[$0] }
            var tester = known[entry.email.lowercased()]
            if tester == nil { tester = try await client.betaTesters(appID: nil, email: entry.email).first }
            guard let tester else {
                if !dryRun {
                    _ = try await client.createBetaTester(email: entry.email, firstName: entry.firstName, lastName: entry.lastName,
                                                          groupIDs: targets.map(\.id))
                }
                outcomes.append(BetaTesterOutcome(entry: entry, action: .invited, groups: targets.map(\.name), unchanged: []))
                continue
            }
            let missing = targets.filter { !tester.groupIDs.contains($0.id) }
            if !dryRun { for group in missing { try await client.addBetaTesters([tester.id], toGroup: group) } }
            outcomes.append(BetaTesterOutcome(entry: entry, action: missing.isEmpty ? .alreadyInGroups : .addedToGroups,
                                              groups: missing.map(\.name),
                                              unchanged: targets.filter { tester.groupIDs.contains($0.id) }.map(\.name)))
        }
    }

    /// Removes a tester from the groups named, or, when none are, from the app and all its groups.
    public func remove(email: String, groupNames: [String], dryRun: Bool) async throws -> BetaTesterOutcome {
        let entry = BetaTesterEntry(email: email, groups: groupNames)
        let groups = groupNames.isEmpty ? [:] : try await groups(named: groupNames.map { ($0, nil) })
        guard let tester = try await client.betaTesters(appID: appID, email: email).first else {
            return BetaTesterOutcome(entry: entry, action: .notATester, groups: [], unchanged: groupNames)
        }
        if groupNames.isEmpty {
            if !dryRun { try await client.removeBetaTesters([tester.id], fromApp: appID) }
            return BetaTesterOutcome(entry: entry, action: .removedFromApp, groups: [], unchanged: [])
        }
        let targets = groupNames.compactMap { groups[$0] }
        let member = targets.filter { tester.groupIDs.contains($0.id) }
        if !dryRun { for group in member { try await client.removeBetaTesters([tester.id], fromGroup: group) } }
        return BetaTesterOutcome(entry: entry, action: member.isEmpty ? .notATester : .removedFromGroups, groups: member.map(\.name),
                                 unchanged: targets.filter { !tester.groupIDs.contains($0.id) }.map(\.name))
    }
}
