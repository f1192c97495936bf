import ArgumentParser
import Basics
import Foundation
import Pins

/// `slipway verify`: both verifications, one verdict for CI.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Run 'tools verify' (when there is a Toolfile) and 'deps verify', offline.",
        discussion: """
            Exit 0: all good; 1: drift; 2: a Toolfile or lockfile cannot be read.

            Examples:
              slipway verify
              slipway verify --json
            """
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print one JSON object with 'tools' and 'deps' (sorted keys).")
    var json = false

    private struct Combined: Encodable {
        var tools: ToolVerifyReport?
        var deps: DepsReport
        var ok: Bool
    }

    func run() async throws {
        let env = global.environment()
        let context = try env.pinsContext(online: false)
        var tools: ToolVerifyReport?
        let deps: DepsReport
        do {
            if env.fileSystem.exists(context.toolfilePath) {
                tools = try await ToolVerifier(context: context).report()
            }
            deps = try await DependencyAuditor(context: context).audit()
        } catch {
            throw Failure.report(error, in: env)
        }
        let ok = (tools?.isOK ?? true) && deps.isOK
        if json {
            try env.printJSON(Combined(tools: tools, deps: deps, ok: ok))
        } else {
            if let tools { ToolsVerifyCommand.printHuman(tools, env: env) } else { env.print("No Toolfile: tools not checked.") }
            DepsVerifyCommand.printHuman(deps, env: env)
        }
        if !ok { throw ExitCodes.failure }
    }
}
