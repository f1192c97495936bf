import Basics
import Foundation

/// `swift.build`: builds a Swift package with SwiftPM.
public struct SwiftBuildStep: Step {
    public static let description = StepDescription(
        id: "swift.build",
        summary: "Build a Swift package (swift build)",
        discussion: "Runs `swift build` and sets `bin-path` to the folder holding the built products.",
        options: SwiftPackageOptions.specs(command: "swift build", between: [
            .optional("product", .string, "Build only this product."),
        ]),
        outputs: [OutputSpec("bin-path", "The folder with the built executables and libraries.", file: true)],
        examples: [
            StepExample("Release build of one product", "- swift.build: { configuration: release, product: slipway }"),
            StepExample("Static standard library", "- swift.build: { configuration: release, arguments: [--static-swift-stdlib] }"),
        ]
    )

    let package: SwiftPackageOptions
    let product: String?

    public init(options: StepOptions) throws {
        package = try SwiftPackageOptions(options: options)
        product = try options.string("product")
    }

    func commonArguments(_ context: StepContext) -> [String] {
        package.packageArguments(context)
    }

    var buildArguments: [String] {
        (product.map { ["--product", $0] } ?? []) + package.arguments
    }

    public func plan(in context: StepContext) throws -> [Effect] {
        let spec = context.processSpec("swift", ["build"] + commonArguments(context) + buildArguments)
        return [Effect(.process, spec.commandLine)]
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        let build = context.processSpec("swift", ["build"] + commonArguments(context) + buildArguments)
        let binPath = try await context.withPrivateTemporaryDirectory(build) { spec in
            try await context.runChecked(spec)
            var show = spec
            show.arguments = ["build"] + commonArguments(context) + ["--show-bin-path"]
            return try await context.processRunner.run(show)
        }
        return ["bin-path": binPath.outputText.trimmingCharacters(in: .whitespacesAndNewlines)]
    }
}
