import AppleAPI
import ArgumentParser
import Basics
import Foundation

/// `slipway testflight testers list`.
struct TestFlightTestersListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the app's testers (of one group with --group): name, email, state and groups.",
        discussion: """
            Examples:
              slipway testflight testers list --bundle-id com.example.app --key-id ABC123DEFG --issuer-id ... --key-file AuthKey.p8
              slipway testflight testers list --bundle-id com.example.app --group External --json --key-id ABC123DEFG ...
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var app: TestFlightAppOptions

    @Option(help: ArgumentHelp("Only the testers of this beta group.", valueName: "name"))
    var group: String?

    @Flag(help: "Print the testers as JSON.")
    var json = false

    func validate() throws { try app.check() }

    func run() async throws {
        let env = global.environment()
        try await app.run(env) { client, manager in
            let groups = try await manager.groups(named: group.map { [($0, nil)] } ?? [])
            let all = try await client.betaGroups(appID: manager.appID)
            let names = Dictionary(all.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            let testers = try await client.betaTesters(appID: manager.appID, groupID: group.flatMap { groups[$0]?.id })
            let rows = testers.map { tester in
                (tester, tester.groupIDs.compactMap { names[$0] }.sorted())
            }
            if json {
                env.print(AppStoreCommandSupport.json(rows.map { tester, groups -> [String: Any] in
                    ["id": tester.id, "email": tester.email, "firstName": tester.firstName ?? "", "lastName": tester.lastName ?? "",
                     "state": tester.state ?? "", "inviteType": tester.inviteType ?? "", "groups": groups]
                }))
            } else if rows.isEmpty {
                env.print("no testers in \(group.map { "the group '\($0)' of " } ?? "")\(manager.appLabel)".displaySafe)
            } else {
                env.print(AppStoreCommandSupport.table(header: ["NAME", "EMAIL", "STATE", "GROUPS"], rows: rows.map { tester, groups in
                    let name = [tester.firstName, tester.lastName].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
                    return [name.isEmpty ? "-" : name, tester.email, (tester.state ?? "-").lowercased(), groups.joined(separator: ";")]
                }))
            }
        }
    }
}

/// `slipway testflight testers add`.
struct TestFlightTestersAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Invite a tester into beta groups (a known tester is only added to the groups it is not in).",
        discussion: """
            Examples:
              slipway testflight testers add --bundle-id com.example.app --email alice@example.com --first-name Alice --group "External" --key-id ABC123DEFG ...
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var app: TestFlightAppOptions

    @Option(help: ArgumentHelp("The tester's email address.", valueName: "email"))
    var email: String

    @Option(help: ArgumentHelp("The tester's first name.", valueName: "name"))
    var firstName = ""

    @Option(help: ArgumentHelp("The tester's last name.", valueName: "name"))
    var lastName = ""

    @Option(help: ArgumentHelp("A beta group to add the tester to (repeat for several).", valueName: "name"))
    var group: [String] = []

    @Flag(help: "Only show what would be done.")
    var dryRun = false

    func validate() throws {
        try app.check()
        if let problem = BetaTesterEntry.problem(email: email) { throw ValidationError("--email: \(problem).") }
        if group.isEmpty { throw ValidationError("Name the beta group to add the tester to with --group.") }
    }

    func run() async throws {
        let env = global.environment()
        try await app.run(env) { _, manager in
            let entry = BetaTesterEntry(email: email, firstName: firstName, lastName: lastName, groups: group)
            let outcomes = try await manager.add([entry], dryRun: dryRun)
            env.print(TestersOutput.lines(outcomes, dryRun: dryRun, showEmail: true).joined(separator: "\n"))
        }
    }
}

/// `slipway testflight testers remove`.
struct TestFlightTestersRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a tester from beta groups (--group), or from the app and all its groups when none is given.",
        discussion: """
            Examples:
              slipway testflight testers remove --bundle-id com.example.app --email alice@example.com --group External --key-id ABC123DEFG ...
              slipway testflight testers remove --bundle-id com.example.app --email alice@example.com --key-id ABC123DEFG ...
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var app: TestFlightAppOptions

    @Option(help: ArgumentHelp("The tester's email address.", valueName: "email"))
    var email: String

    @Option(help: ArgumentHelp("A beta group to remove the tester from (repeat for several); none: the whole app.", valueName: "name"))
    var group: [String] = []

    @Flag(help: "Only show what would be done.")
    var dryRun = false

    func validate() throws {
        try app.check()
        if let problem = BetaTesterEntry.problem(email: email) { throw ValidationError("--email: \(problem).") }
    }

    func run() async throws {
        let env = global.environment()
        try await app.run(env) { _, manager in
            let outcome = try await manager.remove(email: email, groupNames: group, dryRun: dryRun)
            env.print(TestersOutput.lines([outcome], dryRun: dryRun, showEmail: true, app: manager.appLabel).joined(separator: "\n"))
        }
    }
}

/// `slipway testflight testers import`.
struct TestFlightTestersImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Invite the testers of a CSV file in pilot's format: first name, last name, email[, groups separated by ;].",
        discussion: """
            Every row is checked first (an email, one row per tester, a group for each, and every \
            group an existing group of the app); any problem is reported with its file:line, all at \
            once, and nothing is sent (exit 2). Testers already in their groups are left alone, so a \
            re-run sends nothing. The output names rows by file:line, not by email, so CI logs do not \
            collect the addresses.

            Examples:
              slipway testflight testers import testers.csv --group "External" --dry-run --bundle-id com.example.app --key-id ABC123DEFG ...
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var app: TestFlightAppOptions

    @Argument(help: ArgumentHelp("The CSV file.", valueName: "testers.csv"))
    var file: String

    @Option(help: ArgumentHelp("The group of rows without a groups column (repeat for several).", valueName: "name"))
    var group: [String] = []

    @Flag(help: "Only show what would be done.")
    var dryRun = false

    func validate() throws { try app.check() }

    func run() async throws {
        let env = global.environment()
        let entries = try Failure.readingInput(env) {
            let path = file.hasPrefix("/") ? file : env.projectDirectory + "/" + file
            return try BetaTesterFile.load(path, display: file, defaultGroups: group, fileSystem: env.fileSystem)
        }
        try await app.run(env) { _, manager in
            do {
                let outcomes = try await manager.add(entries, dryRun: dryRun)
                env.print(TestersOutput.lines(outcomes, dryRun: dryRun, showEmail: false).joined(separator: "\n"))
            } catch {
                if case let .stopped(done, _)? = error as? BetaTesterInputError {
                    env.print(TestersOutput.lines(done, dryRun: dryRun, showEmail: false, summary: false).joined(separator: "\n"))
                }
                throw error
            }
        }
    }
}

/// The lines the tester commands print.
enum TestersOutput {
    static func lines(_ outcomes: [BetaTesterOutcome], dryRun: Bool, showEmail: Bool, app: String = "the app", summary: Bool = true)
        -> [String] {
        let would = dryRun ? "would " : ""
        var lines = outcomes.map { outcome -> String in
            let who = showEmail ? "'\(outcome.entry.email)'" : (outcome.entry.location ?? "the tester")
            let groups = outcome.groups.map { "'\($0)'" }.joined(separator: ", ")
            let unchanged = outcome.unchanged.map { "'\($0)'" }.joined(separator: ", ")
            switch outcome.action {
            case .invited: return "\(who): \(would)invite into \(groups)"
            case .addedToGroups:
                return "\(who): \(would)add to \(groups)" + (unchanged.isEmpty ? "" : " (already in \(unchanged))")
            case .alreadyInGroups: return "\(who): already in \(unchanged); nothing to do"
            case .removedFromGroups:
                return "\(who): \(would)remove from \(groups)" + (unchanged.isEmpty ? "" : " (was not in \(unchanged))")
            case .removedFromApp: return "\(who): \(would)remove from \(app) and all its groups"
            case .notATester:
                return outcome.unchanged.isEmpty || outcome.entry.groups.isEmpty
                    ? "\(who): not a tester of \(app); nothing to remove"
                    : "\(who): not in \(unchanged); nothing to remove"
            }
        }
        if summary && outcomes.count > 1 {
            let count = { (action: BetaTesterOutcome.Action) in outcomes.filter { $0.action == action }.count }
            lines.append("\(dryRun ? "would invite" : "invited") \(count(.invited)), \(dryRun ? "would add" : "added") \(count(.addedToGroups)) "
                + "to more groups, \(count(.alreadyInGroups)) already in their groups")
        }
        // Each line is one line of Slipway's text around emails and group names from the
        // testers file and the server: their control characters are shown escaped.
        return lines.map(\.displaySafe)
    }
}
