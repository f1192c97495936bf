import Basics
import Foundation
import Publish

/// `sign.codesign`: macOS code signing. Its own step id, so that a lane using it is refused at
/// validation on Linux rather than halfway through a run.
public struct SignCodesignStep: Step {
    public static let description = StepDescription(
        id: "sign.codesign",
        summary: "Code-sign macOS binaries and bundles with codesign (macOS only)",
        discussion: """
            Runs 'codesign --sign IDENTITY --force [--keychain K] [--entitlements E] \
            [--options runtime] --timestamp FILE' for each matched file or bundle. --force makes \
            a re-run replace the signature instead of failing. The hardened runtime and a secure \
            time stamp (the defaults) are what notarization requires.
            """,
        options: [
            .required("files", .list(.string), "The binaries, bundles or patterns to sign (build/*.app; rules in docs/patterns.md)."),
            .required("identity", .string, "The certificate's name or SHA-1, or '-' for ad-hoc signing."),
            .optional("keychain", .string, "The keychain holding the identity."),
            .optional("entitlements", .string, "An entitlements plist to embed."),
            .optional("options", .list(.string), default: .list([.string("runtime")]), "codesign --options flags."),
            .optional("timestamp", .bool, default: .bool(true), "Request a secure time stamp from Apple."),
            .optional("deep", .bool, default: .bool(false), "Sign nested code too (--deep)."),
        ],
        outputs: [OutputSpec("signatures", "The signed files, one path per line.")],
        examples: [
            StepExample("Sign an app for notarization", """
                - sign.codesign: { files: [build/App.app], identity: "Developer ID Application: Example Inc (ABCDE12345)" }
                """),
            StepExample("Ad-hoc signing of a command-line tool", """
                - sign.codesign: { files: [.build/release/tool], identity: "-", timestamp: false, options: [] }
                """),
        ],
        platforms: [.macOS]
    )

    let files: [String]
    let command: CodesignCommand

    public init(options: StepOptions) throws {
        files = try options.strings("files")
        let flags = options.values["options"] == nil ? ["runtime"] : try options.strings("options")
        command = CodesignCommand(identity: try options.requiredString("identity"), keychain: try options.string("keychain"),
                                  entitlements: try options.string("entitlements"), options: flags,
                                  timestamp: try options.bool("timestamp"), deep: try options.bool("deep"))
        guard !files.isEmpty else { throw StepError.invalidOption(name: "files", problem: "is empty. List what to sign.") }
    }

    public func plan(in context: StepContext) throws -> [Effect] {
        files.map { Effect(.process, ProcessSpec(executable: command.executable, arguments: command.arguments(for: $0),
                                                 environment: [:]).commandLine) }
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        let targets = try PublishStepSupport.files(files, in: context, includeDirectories: true).map(\.path)
        let resolved = CodesignCommand(identity: command.identity, keychain: command.keychain,
                                       entitlements: command.entitlements.map(context.resolve), options: command.options,
                                       timestamp: command.timestamp, deep: command.deep, executable: command.executable)
        let signed = try await CodesignSigner(command: resolved, processRunner: context.processRunner,
                                              environment: context.environment).sign(targets)
        return ["signatures": signed.map { PublishStepSupport.display($0, in: context) }.joined(separator: "\n")]
    }
}

extension StepRegistry {
    /// Built-ins that exist only where they can run. `sign.codesign` is listed on macOS only:
    /// its examples cannot validate elsewhere, and on Linux a lane using it is refused at
    /// validation (saying it runs on macOS only) before anything runs.
    static var platformBuiltInTypes: [any Step.Type] {
        Platform.current == .macOS ? macOSOnlyBuiltInTypes : []
    }

    /// The built-ins that exist on macOS only, whatever the platform this is: for messages that
    /// tell a Linux user a step is macOS-only rather than unknown, and for the docs' check.
    public static var macOSOnlyBuiltInTypes: [any Step.Type] { [SignCodesignStep.self] }
}
