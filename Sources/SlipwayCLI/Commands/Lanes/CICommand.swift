import ArgumentParser
import Basics
import CIExport
import Foundation
import Lanes

/// `slipway ci`: a lane as a CI engine's pipeline.
struct CICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ci",
        abstract: "Run a lane across CI runners: export it as a GitHub Actions, GitLab CI or Buildkite pipeline.",
        discussion: """
            Each top-level step (and each member of a parallel group) becomes a job that runs \
            'slipway run LANE --only STEP' after downloading the hand-over records (.slipway/ci/) \
            and declared artifacts of the jobs before it; 'finally' steps form one job that \
            always runs. See docs/ci.md.
            """,
        subcommands: [CIExportCommand.self, CICheckCommand.self]
    )
}

/// The options `ci export` and `ci check` share: they must be the same for check to pass.
struct CIPipelineOptions: ParsableArguments {
    @Argument(help: "The lane: a file lanes/LANE.yml.")
    var lane: String

    @Option(name: .customLong("to"), help: ArgumentHelp("The engine: github-actions, gitlab or buildkite.", valueName: "engine"))
    var engine: String

    @Option(name: .customLong("runner"), help: ArgumentHelp("The engine's runner label for a system, e.g. linux=ubuntu-24.04 (repeatable).", valueName: "system=label"))
    var runners: [String] = []

    @Option(help: ArgumentHelp("A command each job runs first to install slipway, instead of installing the slipway that Toolfile.lock pins.", valueName: "command"))
    var slipwaySetup: String?

    @Flag(help: "The runners already have slipway on PATH: jobs install nothing (default: each job installs the slipway Toolfile.lock pins, checksum-verified and cached).")
    var slipwayOnPath = false

    @Option(help: ArgumentHelp("The folder with the lane files.", valueName: "dir"))
    var lanes = "lanes"

    @OptionGroup var plugins: PluginTrustOptions

    func exporter(_ env: CommandEnvironment) -> CIExporter {
        let workspace = env.workspace(lanes: lanes, runsCheckoutPlugins: plugins.trustPlugins)
        return CIExporter(store: workspace.store, registry: workspace.registry, fileSystem: env.fileSystem)
    }

    func options(output: String?) throws -> CIExportOptions {
        CIExportOptions(runnerLabels: try CIExportOptions.runnerLabels(runners), slipwaySetup: slipwaySetup,
                        slipwayOnPath: slipwayOnPath, lanesDirectory: lanes, outputPath: output)
    }
}

/// `slipway ci export LANE --to ENGINE [--output FILE]`.
struct CIExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the pipeline for a lane (to standard output, or to --output).",
        discussion: """
            The file is the same bytes on every run and starts with the command that regenerates it. \
            Every job first installs the slipway that Toolfile.lock pins (a Toolfile tool named \
            slipway), checksum-verified and cached; --slipway-setup or --slipway-on-path replace that. \
            Exit 2 for an unknown engine or lane, an invalid lane, a step whose runs-on \
            contradicts its platforms, or no slipway pin and neither option.

            Examples:
              slipway ci export release --to github-actions --output .github/workflows/release.yml
              slipway ci export release --to gitlab --output .gitlab-ci.yml
              slipway ci export release --to buildkite --output .buildkite/pipeline.yml
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var pipeline: CIPipelineOptions

    @Option(help: ArgumentHelp("Write the pipeline to this file (relative to the project).", valueName: "file"))
    var output: String?

    func run() async throws {
        let env = global.environment()
        do {
            let engine = try CIEngine.named(pipeline.engine)
            let text = try await pipeline.exporter(env).export(pipeline.lane, to: engine, options: try pipeline.options(output: output))
            guard let output else {
                env.standardOutput.write(text)
                return
            }
            try pipeline.exporter(env).write(text, to: output)
            env.standardError.write("wrote \(output) (\(engine.rawValue), lane '\(pipeline.lane)')\n")
        } catch {
            throw Failure.report(error, in: env)
        }
    }
}

/// `slipway ci check LANE --to ENGINE --file FILE`.
struct CICheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Exit 1 with a diff when a committed pipeline is out of date with its lane.",
        discussion: """
            Give the same --to, --runner, --slipway-setup, --slipway-on-path and --lanes as the export (the file's \
            header shows them). Exit 0 when the file is what 'ci export' would write, 1 (printing \
            a unified diff) when not, 2 for bad input.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var pipeline: CIPipelineOptions

    @Option(help: ArgumentHelp("The committed pipeline file (relative to the project).", valueName: "file"))
    var file: String

    func run() async throws {
        let env = global.environment()
        do {
            let engine = try CIEngine.named(pipeline.engine)
            let options = try pipeline.options(output: file)
            if let diff = try await pipeline.exporter(env).check(pipeline.lane, to: engine, options: options, file: file) {
                env.standardOutput.write(diff)
                env.printError("'\(file)' is out of date with lane '\(pipeline.lane)'; regenerate it with 'slipway ci export \(pipeline.lane) --to \(engine.rawValue) --output \(file)' (and the same options)")
                throw ExitCodes.failure
            }
            env.print("\(file) is up to date with lane '\(pipeline.lane)'".displaySafe)
        } catch {
            throw Failure.report(error, in: env)
        }
    }
}
