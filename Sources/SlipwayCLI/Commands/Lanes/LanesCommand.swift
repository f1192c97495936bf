import ArgumentParser
import Basics
import Foundation
import Lanes
import Steps

/// `slipway lanes`: lists lanes without running anything.
struct LanesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lanes",
        abstract: "List the lanes with their descriptions, inputs and secrets (runs nothing).",
        discussion: "Reads lanes/*.yml. A lane file with problems is listed with them; 'slipway validate' checks lanes fully."
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("The folder with the lane files.", valueName: "dir"))
    var lanes = "lanes"

    @Flag(help: "Print JSON (sorted keys) for scripts.")
    var json = false

    func run() async throws {
        let env = global.environment()
        do {
            let workspace = env.workspace(lanes: lanes, runsCheckoutPlugins: false)
            let summaries = try workspace.summaries()
            if json {
                env.print(String(decoding: try JSONFormatting.encoder().encode(summaries), as: UTF8.self))
                return
            }
            if summaries.isEmpty { env.print("No lanes in '\(lanes)'. Run 'slipway init' to create starter lanes.") }
            for summary in summaries { env.print(render(summary, style: env.style)) }
        } catch {
            throw Failure.report(error, in: env)
        }
    }

    /// Lane names come from file names and the rest from the lane files (untrusted): their
    /// control characters are shown escaped before anything is coloured.
    private func render(_ lane: LaneSummary, style: TerminalStyle) -> String {
        let name = lane.name.displaySafe
        var lines = [style.paint(name, .bold) + "  " + (lane.description.map(DisplayText.untrusted) ?? style.paint("(no description)", .dim))]
        for input in lane.inputs {
            var detail = input.type
            if let choices = input.choices { detail = choices.joined(separator: "|") }
            if let value = input.default { detail += ", default \(value)" }
            if input.required { detail += ", required" }
            lines.append(("    --input \(input.name)=…  (\(detail))" + (input.description.map { "  \($0)" } ?? "")).displaySafe)
        }
        if !lane.secrets.isEmpty { lines.append("    secrets: \(lane.secrets.joined(separator: ", "))".displaySafe) }
        if lane.problems.isEmpty {
            let count = StepCount(steps: lane.steps, finally: lane.finallySteps)
            lines.append(style.paint("    \(count) · \(lane.file.displaySafe)", .dim))
        } else {
            lines.append(style.paint("    invalid: \(lane.problems.count) problem(s); run 'slipway validate \(name)'", .red))
        }
        return lines.joined(separator: "\n")
    }
}

/// `slipway validate [LANE...]`.
struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check lanes completely without running them (exit 2 when any is invalid).",
        discussion: """
            Checks every step, option, expression, input and secret declaration. With no LANE, checks all lanes.

            A step that runs only on another platform (xcode.*, sign.codesign on Linux) is refused; \
            --platform macos checks such a lane from Linux as on macOS: every option, reference and \
            scheme. 'slipway run LANE --dry-run --platform macos' prints its plan too.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Lanes to check (default: all).")
    var names: [String] = []

    @OptionGroup var plugins: PluginTrustOptions

    @OptionGroup var platform: PlatformOption

    @Option(help: ArgumentHelp("The folder with the lane files.", valueName: "dir"))
    var lanes = "lanes"

    func run() async throws {
        let env = global.environment()
        let workspace = env.workspace(lanes: lanes, runsCheckoutPlugins: plugins.trustPlugins, platform: platform.target)
        var failed = false
        do {
            for name in names.isEmpty ? try workspace.store.names() : names {
                do {
                    let validated = try await workspace.validate(name)
                    env.printDiagnostics(validated.warnings)
                    env.print(env.style.paint("✓", .green) + " \(name.displaySafe): \(validated.lane.stepCount), valid\(platform.note)")
                } catch let error as DiagnosticsError {
                    failed = true
                    env.printDiagnostics(error.diagnostics)
                    env.print(env.style.paint("✗", .red) + " \(name.displaySafe): \(error.diagnostics.filter { $0.severity == .error }.count) problem(s)\(platform.note)")
                }
            }
        } catch {
            throw Failure.report(error, in: env)
        }
        if failed { throw Failure.invalidInput(in: env) }
    }
}
