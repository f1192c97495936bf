import Basics
import Foundation
import Xcode

/// `xcode.build`: `xcodebuild build` of a scheme, with readable output and the products' paths.
public struct XcodeBuildStep: Step, ProjectCheckedStep {
    public static let description = StepDescription(
        id: "xcode.build",
        summary: "Build an Xcode scheme with xcodebuild (macOS only)",
        discussion: """
            Runs 'xcodebuild build' for a project or workspace and scheme. The output is shown \
            one line per compile, link or error (the raw log is kept, secrets masked, and is an \
            output); errors and warnings carry file:line:column and their source line. Validation \
            checks that the project or workspace exists and has the scheme. The products' paths \
            come from 'xcodebuild -showBuildSettings -json' afterwards.
            """,
        options: XcodeSchemeOptions.specs + [
            .optional("result-bundle", .string, "xcodebuild -resultBundlePath (removed first when it exists)."),
        ],
        outputs: [
            OutputSpec("products", "The built products' paths (BUILT_PRODUCTS_DIR/FULL_PRODUCT_NAME), one per line."),
            OutputSpec("log", "The raw xcodebuild log.", file: true),
        ],
        examples: [
            StepExample("Build an app for the simulator", """
                - xcode.build: { project: App.xcodeproj, scheme: App, destinations: ["generic/platform=iOS Simulator"] }
                """),
            StepExample("Build a workspace's scheme without signing", """
                - xcode.build:
                    workspace: App.xcworkspace
                    scheme: App
                    configuration: Release
                    build-settings: { CODE_SIGNING_ALLOWED: "NO" }
                """),
        ],
        platforms: [.macOS]
    )

    let scheme: XcodeSchemeOptions
    let resultBundle: String?

    public init(options: StepOptions) throws {
        scheme = try XcodeSchemeOptions(options: options)
        resultBundle = try options.string("result-bundle")
    }

    public func checkProject(in projectDirectory: String, fileSystem: any FileSystem) throws {
        try scheme.checkProject(in: projectDirectory, fileSystem: fileSystem)
    }

    public func projectNotes(in projectDirectory: String, fileSystem: any FileSystem) -> [String] {
        scheme.projectNotes(in: projectDirectory, fileSystem: fileSystem)
    }

    func invocation(in context: StepContext) -> XcodebuildInvocation {
        var invocation = scheme.invocation(.build, in: context)
        invocation.resultBundlePath = resultBundle.map(context.resolve)
        return invocation
    }

    public func plan(in context: StepContext) throws -> [Effect] {
        let invocation = invocation(in: context)
        let query = context.processSpec("xcodebuild", try XcodeBuildSettings.query(of: invocation).arguments() + ["-json"])
        return scheme.run.plan(try invocation.arguments(), name: "build", in: context)
            + [Effect(.process, query.commandLine + " (read the products' paths)")]
    }

    /// The project or workspace (options resolved) exists and has the scheme.
    public func check(in context: StepContext) async throws {
        try scheme.checkProject(in: context.workingDirectory, fileSystem: context.fileSystem, validating: false)
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        let invocation = invocation(in: context)
        if let bundle = invocation.resultBundlePath { try? context.fileSystem.remove(bundle) }
        let runner = XcodebuildRunner(options: scheme.run, context: context)
        let outcome = try await runner.run(try invocation.arguments(), name: "build")
        guard outcome.status.isSuccess, !outcome.summary.failed else { throw XcodebuildRunner.buildFailure(outcome, action: "build") }
        let products = try await XcodeBuildSettings.products(of: invocation, runner: runner)
        context.events.log(.info, "built \(products.count) product(s); \(outcome.summary.warnings) warning(s)")
        return ["products": products.joined(separator: "\n"), "log": outcome.log]
    }
}

/// The products a scheme builds, from `xcodebuild -showBuildSettings -json`.
enum XcodeBuildSettings {
    /// The `-showBuildSettings` invocation for the build `invocation` (without `-json`).
    static func query(of invocation: XcodebuildInvocation) -> XcodebuildInvocation {
        var query = invocation
        query.action = .showBuildSettings
        query.resultBundlePath = nil
        return query
    }

    static func products(of invocation: XcodebuildInvocation, runner: XcodebuildRunner) async throws -> [String] {
        var spec = runner.context.processSpec("xcodebuild", try query(of: invocation).arguments() + ["-json"])
        spec.environment = try runner.environment()
        let result = try await runner.context.processRunner.run(spec, output: nil)
        guard result.status.isSuccess else {
            throw StepError.failed("xcodebuild -showBuildSettings failed with \(result.status): \(result.errorText.split(separator: "\n").first ?? "")")
        }
        struct Entry: Decodable {
            var target: String?
            var buildSettings: [String: String]
        }
        let entries: [Entry]
        do {
            entries = try JSONDecoder().decode([Entry].self, from: Data(result.standardOutput))
        } catch {
            throw StepError.failed("xcodebuild -showBuildSettings -json printed something that is not its JSON (\(errorText(error))).")
        }
        return entries.compactMap { entry in
            guard let directory = entry.buildSettings["BUILT_PRODUCTS_DIR"], let name = entry.buildSettings["FULL_PRODUCT_NAME"],
                  !name.isEmpty else { return nil }
            return directory + "/" + name
        }
    }
}
