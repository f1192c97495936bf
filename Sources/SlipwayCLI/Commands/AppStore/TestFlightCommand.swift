import AppleAPI
import ArgumentParser
import Basics
import Foundation

/// `slipway testflight`: TestFlight testers and groups (fastlane pilot's tester commands).
struct TestFlightCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "testflight",
        abstract: "Manage TestFlight testers and beta groups' public links (fastlane pilot's tester commands).",
        discussion: "See docs/testflight-testers.md.",
        subcommands: [TestFlightTestersCommand.self, TestFlightGroupLinkCommand.self]
    )
}

/// `slipway testflight testers`.
struct TestFlightTestersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "testers",
        abstract: "List, add, remove and import an app's TestFlight testers.",
        subcommands: [TestFlightTestersListCommand.self, TestFlightTestersAddCommand.self, TestFlightTestersRemoveCommand.self,
                      TestFlightTestersImportCommand.self]
    )
}

/// The app and key every `testflight` command takes.
struct TestFlightAppOptions: ParsableArguments {
    @OptionGroup var keyOptions: AppStoreKeyOptions

    @Option(help: ArgumentHelp("The app's bundle id.", valueName: "id"))
    var bundleId: String

    func check() throws { try keyOptions.check(required: true) }

    /// Opens the key, finds the app, and runs `body` with the client and the manager of the
    /// app's testers. A key that cannot be loaded is exit 2; whatever else is thrown is
    /// reported masked with the exit code it carries (an app that cannot be found, 1; bad input
    /// such as unknown groups, 2).
    func run(_ env: CommandEnvironment, _ body: (AppStoreConnectClient, BetaTesterManager) async throws -> Void) async throws {
        let session = try keyOptions.openOrReport(env)
        try await session.run(env) { client in
            let app = try await client.app(bundleID: bundleId)
            try await body(client, BetaTesterManager(client: client, appID: app.id, appLabel: "'\(app.name)' (\(app.bundleID))"))
        }
    }
}

/// `slipway testflight group-link`.
struct TestFlightGroupLinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "group-link",
        abstract: "Turn an external group's public TestFlight link on or off, set how many testers may join, and print the link.",
        discussion: """
            Without --enable, --disable, --limit or --no-limit, prints the link's settings. The \
            limit is 1 to 10,000 (TestFlight's maximum of external testers per app).

            Examples:
              slipway testflight group-link --bundle-id com.example.app --group "Public beta" --enable --limit 500 --key-id ABC123DEFG ...
              slipway testflight group-link --bundle-id com.example.app --group "Public beta" --disable --key-id ABC123DEFG ...
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var app: TestFlightAppOptions

    @Option(help: ArgumentHelp("The beta group's name.", valueName: "name"))
    var group: String

    @Flag(help: "Turn the public link on.")
    var enable = false

    @Flag(help: "Turn the public link off.")
    var disable = false

    @Option(help: ArgumentHelp("At most this many testers may join through the link (1-10000).", valueName: "count"))
    var limit: Int?

    @Flag(help: "Let any number of testers join through the link.")
    var noLimit = false

    @Flag(help: "Print the result as JSON.")
    var json = false

    func validate() throws {
        try app.check()
        if enable && disable { throw ValidationError("Give --enable or --disable, not both.") }
        if limit != nil && noLimit { throw ValidationError("Give --limit or --no-limit, not both.") }
        if let limit, !AppStoreConnectClient.publicLinkLimits.contains(limit) {
            throw ValidationError(BetaTesterInputError.limitOutOfRange(limit).errorDescription ?? "")
        }
    }

    func run() async throws {
        let env = global.environment()
        try await app.run(env) { client, manager in
            guard let chosen = try await manager.groups(named: [(group, nil)])[group] else { throw ExitCodes.failure }
            let change = enable || disable || limit != nil || noLimit
            if change && chosen.isInternal { throw BetaTesterInputError.internalGroup(chosen.name) }
            let link = change
                ? try await client.setPublicLink(ofGroup: chosen, enabled: enable ? true : disable ? false : nil,
                                                    limitEnabled: limit != nil ? true : noLimit ? false : nil, limit: limit)
                : try await client.publicLink(ofGroup: chosen.id)
            if json {
                var object: [String: Any] = ["group": link.name, "enabled": link.enabled, "limitEnabled": link.limitEnabled]
                object["url"] = link.url ?? NSNull()
                object["limit"] = link.limit ?? NSNull()
                env.print(AppStoreCommandSupport.json(object))
                return
            }
            let limitText = link.limitEnabled ? "at most \(link.limit.map(String.init) ?? "?") testers" : "no limit"
            env.print("public link of '\(link.name.displaySafe)': \(link.enabled ? "enabled" : "disabled"), \(limitText)")
            if let url = link.url, link.enabled { env.print(url.displaySafe) }
        }
    }
}
