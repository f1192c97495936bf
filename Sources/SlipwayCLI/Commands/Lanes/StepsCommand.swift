import ArgumentParser
import Basics
import Foundation
import Lanes
import Steps

/// `slipway steps`: the step catalogue.
struct StepsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "steps",
        abstract: "List the steps lanes can use: built-ins and plugins found on PATH.",
        discussion: "Plugins are executables named slipway-step-NAME (see docs/plugins.md). 'slipway step NAME' shows one step's options and examples."
    )

    @OptionGroup var global: GlobalOptions

    @OptionGroup var plugins: PluginTrustOptions

    func run() async throws {
        let env = global.environment()
        let workspace = env.workspace(runsCheckoutPlugins: plugins.trustPlugins)
        env.print("BUILT-IN STEPS:")
        env.print(StepDocumentation.list(workspace.registry.builtInKinds))
        let plugins = await workspace.registry.plugins()
        if !plugins.kinds.isEmpty {
            env.print("\nPLUGINS:")
            // Plugins describe themselves: their text is shown with control characters escaped.
            env.print(DisplayText.untrustedLines(StepDocumentation.list(plugins.kinds)))
        }
        for problem in plugins.problems { env.printError(problem) }
        env.print("\nRun 'slipway step NAME' for a step's options, outputs and examples.")
    }
}

/// `slipway step NAME`: one step's documentation.
struct StepCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "step",
        abstract: "Show a step's options (types, defaults), outputs, platforms and examples."
    )

    @OptionGroup var global: GlobalOptions

    @OptionGroup var plugins: PluginTrustOptions

    @Argument(help: "The step, e.g. run or swift.test.")
    var name: String

    func run() async throws {
        let env = global.environment()
        let workspace = env.workspace(runsCheckoutPlugins: plugins.trustPlugins)
        do {
            guard let kind = try await workspace.registry.kind(for: name) else {
                throw CommandInputError("there is no step '\(name)'.\(Suggestions.didYouMean(name, in: workspace.registry.knownIDs)) "
                    + "Run 'slipway steps' for the list.")
            }
            env.print(DisplayText.untrustedLines(StepDocumentation.page(kind)))
        } catch {
            throw Failure.report(error, in: env)
        }
    }
}
