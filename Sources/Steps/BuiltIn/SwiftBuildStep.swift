import Basics
import Foundation

/// `swift.build`: builds a Swift package with SwiftPM.
public struct SwiftBuildStep: Step {
    public static let description = StepDescription(
        id: "swift.build",
        summary: "Build a Swift package (swift build)",
        discussion: "Runs `swift build` and sets `bin-path` to the folder holding the built products.",
        options: [
            .optional("configuration", .choice(["debug", "release"]), default: .string("debug"), "Build configuration."),
            .optional("product", .string, "Build only this product."),
            .optional("package-path", .string, default: .string("."), "The package's folder."),
            .optional("scratch-path", .string, "SwiftPM's build folder (default .build)."),
            .optional("arguments", .list(.string), "More arguments for swift build."),
        ],
        outputs: [OutputSpec("bin-path", "The folder with the built executables and libraries.", file: true)],
        examples: [
            StepExample("Release build of one product", "- swift.build: { configuration: release, product: slipway }"),
            StepExample("Static standard library", "- swift.build: { configuration: release, arguments: [--static-swift-stdlib] }"),
        ]
    )

    let configuration: String
    let product: String?
    let packagePath: String
    let scratchPath: String?
    let arguments: [String]

    public init(options: StepOptions) throws {
        configuration = try options.requiredString("configuration")
        product = try options.string("product")
        packagePath = try options.requiredString("package-path")
        scratchPath = try options.string("scratch-path")
        arguments = try options.strings("arguments")
    }

    func commonArguments(_ context: StepContext) -> [String] {
        var args = ["-c", configuration, "--package-path", context.resolve(packagePath)]
        if let scratchPath { args += ["--scratch-path", context.resolve(scratchPath)] }
        return args
    }

    var buildArguments: [String] {
        (product.map { ["--product", $0] } ?? []) + arguments
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
