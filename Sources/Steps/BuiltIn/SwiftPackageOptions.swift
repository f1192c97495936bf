import Basics

/// The options `swift.build` and `swift.test` share (as `XcodeSchemeOptions` serves the
/// `xcode.*` steps): the configuration, the package's folder, SwiftPM's build folder and more
/// arguments for the command.
struct SwiftPackageOptions: Sendable {
    var configuration: String
    var packagePath: String
    var scratchPath: String?
    var arguments: [String]

    /// The specs: `configuration`, then the step's own (`between`), then `package-path`,
    /// `scratch-path` and `arguments` (described as more arguments for `command`).
    static func specs(command: String, between: [OptionSpec]) -> [OptionSpec] {
        [.optional("configuration", .choice(["debug", "release"]), default: .string("debug"), "Build configuration.")]
            + between
            + [.optional("package-path", .string, default: .string("."), "The package's folder."),
               .optional("scratch-path", .string, "SwiftPM's build folder (default .build)."),
               .optional("arguments", .list(.string), "More arguments for \(command).")]
    }

    init(options: StepOptions) throws {
        configuration = try options.requiredString("configuration")
        packagePath = try options.requiredString("package-path")
        scratchPath = try options.string("scratch-path")
        arguments = try options.strings("arguments")
    }

    /// `-c CONFIGURATION --package-path PATH [--scratch-path PATH]`, paths resolved in the project.
    func packageArguments(_ context: StepContext) -> [String] {
        var args = ["-c", configuration, "--package-path", context.resolve(packagePath)]
        if let scratchPath { args += ["--scratch-path", context.resolve(scratchPath)] }
        return args
    }
}
