import ArgumentParser
import Basics
import Foundation
import Pins

/// `slipway tools`: pinned tools (Toolfile, Toolfile.lock).
struct ToolsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tools",
        abstract: "Pin, install and verify the project's tools (Toolfile, Toolfile.lock).",
        discussion: """
            The Toolfile lists each tool with its source (git, archive or system) and a version \
            constraint; Toolfile.lock records what was resolved, with commits and checksums. \
            See docs/pins.md.

            Examples:
              slipway tools lock
              slipway tools lock --update swiftlint
              slipway tools install
              slipway tools verify --json
              slipway tools outdated
            """,
        subcommands: [ToolsLockCommand.self, ToolsInstallCommand.self, ToolsVerifyCommand.self, ToolsOutdatedCommand.self]
    )
}

/// `slipway tools lock`.
struct ToolsLockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract: "Resolve the Toolfile's constraints and write Toolfile.lock.",
        discussion: """
            Git tools are resolved from the repository's tags (ls-remote); each tag is locked \
            with the commit it points at. Archive tools are downloaded for every listed platform \
            to record the archive's and the executable's sha256. System tools are looked up on \
            PATH. Entries that still fit the Toolfile are kept unless --update names them.

            Examples:
              slipway tools lock
              slipway tools lock --update            (re-resolve every tool)
              slipway tools lock --update swiftlint  (re-resolve one tool)
            """
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Re-resolve every tool (or only the tools named after it).")
    var update = false

    @Argument(help: "With --update: the tools to re-resolve (default: all).")
    var names: [String] = []

    func validate() throws {
        if !names.isEmpty && !update { throw ValidationError("Tool names are only accepted with --update, e.g. 'slipway tools lock --update \(names[0])'.") }
    }

    func run() async throws {
        let env = global.environment()
        let printer = PinsProgressPrinter(env: env)
        do {
            let request: LockUpdate = !update ? .outdatedOnly : names.isEmpty ? .all : .tools(names)
            let result = try await ToolLocker(context: try env.pinsContext(online: true), events: printer.handler).lock(update: request)
            printer.finish()
            for change in result.changes where change.kind == .removed {
                env.print(env.style.paint("  removed   ", .yellow) + "\(change.tool) \(change.from ?? "")")
            }
            env.print(result.wrote ? "Wrote Toolfile.lock (\(result.lockfile.tools.count) tools)." : "Toolfile.lock is up to date.")
        } catch {
            printer.finish()
            throw Failure.report(error, in: env)
        }
    }
}

/// `slipway tools install`.
struct ToolsInstallCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Install exactly the locked versions into the tools cache.",
        discussion: """
            Each tool is built (git) or downloaded and unpacked (archive) in a temporary folder, \
            checked against Toolfile.lock, and renamed into place: a failed or interrupted \
            install never leaves half a tool. The cache is ~/.cache/slipway/tools \
            ($SLIPWAY_CACHE_DIR or $XDG_CACHE_HOME move it). One install per cache at a time: \
            a second one exits 75 naming the first one's pid.

            Examples:
              slipway tools install
              slipway tools install swiftlint
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The tools to install (default: all).")
    var names: [String] = []

    func run() async throws {
        let env = global.environment()
        let printer = PinsProgressPrinter(env: env)
        do {
            let result = try await ToolInstaller(context: try env.pinsContext(online: true), events: printer.handler)
                .install(names: names.isEmpty ? nil : names)
            printer.finish()
            let fresh = result.tools.filter { !$0.wasPresent }.count
            env.print("\(result.tools.count) tool(s) installed (\(fresh) new).")
        } catch {
            printer.finish()
            throw Failure.report(error, in: env)
        }
    }
}

/// `slipway tools verify`.
struct ToolsVerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check offline that the installed tools are exactly the locked ones.",
        discussion: """
            For every tool: is it locked, does the lock still satisfy the Toolfile, is it \
            installed, does the executable's sha256 equal the lock's, and does it print the \
            locked version. Exit 0: all good; 1: drift; 2: a Toolfile or lockfile problem.

            Examples:
              slipway tools verify
              slipway tools verify --json > tools-report.json
            """
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print JSON (sorted keys): expected, found and file for every check.")
    var json = false

    @Argument(help: "The tools to verify (default: all, plus stale lock entries).")
    var names: [String] = []

    func run() async throws {
        let env = global.environment()
        let report: ToolVerifyReport
        do {
            report = try await ToolVerifier(context: try env.pinsContext(online: false)).report(for: names.isEmpty ? nil : names)
        } catch {
            throw Failure.report(error, in: env)
        }
        if json {
            try env.printJSON(report)
        } else {
            ToolsVerifyCommand.printHuman(report, env: env)
        }
        if !report.isOK { throw ExitCodes.failure }
    }

    static func printHuman(_ report: ToolVerifyReport, env: CommandEnvironment) {
        let style = env.style
        for tool in report.tools {
            let mark = tool.isOK ? style.paint("✓", .green) : style.paint("✗", .red)
            let source = tool.source.map { " (\($0.rawValue))" } ?? ""
            env.print("\(mark) \(tool.name) \(tool.lockedVersion ?? "")\(source)")
            for check in tool.failures {
                env.print("    \(check.check.rawValue): expected \(check.expected), found \(check.found) (\(check.file))")
                if let advice = check.advice { env.print(style.paint("      \(advice)", .dim)) }
            }
        }
        let drifted = report.tools.filter { !$0.isOK }.count
        env.print("\(report.tools.count) tool(s) on \(report.platform): \(report.tools.count - drifted) ok, \(drifted) drifted.")
    }
}

/// `slipway tools outdated`.
struct ToolsOutdatedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outdated",
        abstract: "Show newer versions of git tools (what the constraint allows, and the latest release).",
        discussion: """
            Lists each git tool's remote tags. Archive versions cannot be listed; system tools \
            are the system's. Exit 0 (informational).

            Examples:
              slipway tools outdated
              slipway tools outdated --json
            """
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print JSON (sorted keys).")
    var json = false

    func run() async throws {
        let env = global.environment()
        let rows: [OutdatedTool]
        do {
            rows = try await OutdatedChecker(context: try env.pinsContext(online: false)).check()
        } catch {
            throw Failure.report(error, in: env)
        }
        if json { return try env.printJSON(rows) }
        env.print("TOOL".padding(toLength: 24, withPad: " ", startingAt: 0) + "LOCKED      WANTED      LATEST")
        for row in rows {
            let columns = [row.locked, row.wanted, row.latest].map { ($0 ?? "-").padding(toLength: 12, withPad: " ", startingAt: 0) }
            let name = row.name.padding(toLength: 24, withPad: " ", startingAt: 0)
            let line = name + columns.joined() + (row.note.map { " \($0)" } ?? "")
            env.print(row.isOutdated ? env.style.paint(line, .yellow) : line)
        }
    }
}
