import ArgumentParser
import Basics
import Foundation

/// Options every command shares.
public struct GlobalOptions: ParsableArguments {
    @Option(name: [.customShort("C"), .long], help: ArgumentHelp("Run as if started in this directory (the project's root).", valueName: "dir"))
    var directory: String?

    @Flag(name: .long, help: "Never use colours (also: the NO_COLOR environment variable).")
    var noColor = false

    public init() {}

    /// The project directory, absolute.
    var projectDirectory: String {
        let current = FileManager.default.currentDirectoryPath
        guard let directory else { return current }
        return directory.hasPrefix("/") ? directory : current + "/" + directory
    }

    /// The shared services for a command.
    func environment() -> CommandEnvironment {
        let environment = Environment.current
        var style = TerminalStyle.detect(for: .standardOutput, environment: environment)
        if noColor { style.colors = false }
        return CommandEnvironment(projectDirectory: projectDirectory, environment: environment, style: style)
    }
}

/// What a command works with: the project, the environment, the output streams.
struct CommandEnvironment {
    let projectDirectory: String
    let environment: Environment
    let style: TerminalStyle
    /// The disk, with every path inside the project going through the door (`ProjectFiles`):
    /// no read, write or listing leaves the project through a link, every read is bounded.
    let fileSystem: any FileSystem
    let processRunner: any ProcessRunner = LocalProcessRunner()
    /// Secrets the command learns while it runs (an App Store Connect key and the tokens it
    /// mints): masked in everything written to standard output and error, errors included.
    let secrets = SecretMask()
    /// Standard output and error mask `secrets`, then pass through `TerminalSafeOutput`: text
    /// from the checkout, from servers and from processes never reaches the terminal with its
    /// control sequences.
    var standardOutput: any TextOutput { RedactingOutput(TerminalSafeOutput(FileDescriptorOutput.standardOutput), mask: secrets) }
    var standardError: any TextOutput { RedactingOutput(TerminalSafeOutput(FileDescriptorOutput.standardError), mask: secrets) }

    init(projectDirectory: String, environment: Environment, style: TerminalStyle) {
        self.projectDirectory = projectDirectory
        self.environment = environment
        self.style = style
        self.fileSystem = ProjectFileSystem(root: projectDirectory)
    }

    func print(_ text: String) { standardOutput.write(text + "\n") }

    /// Checks, before anything is written, that the door lets each of `paths` be written (a
    /// path that exists is left alone unless `overwriting`, so only those are checked).
    /// - Throws: `ProjectFileError` for the first path that would go through a link or outside.
    func checkWritable(_ paths: [String], overwriting: Bool) throws {
        guard let door = fileSystem as? ProjectFileSystem else { return }
        for path in paths.sorted() where overwriting || !fileSystem.exists(path) {
            _ = try door.files.checkedForWriting(path)
        }
    }

    /// Prints an error to standard error (and as an annotation under GitHub Actions). Errors
    /// quote names from the checkout and from servers: their control characters are shown
    /// escaped, line breaks kept.
    func printError(_ message: String) {
        ErrorLine.write(message, style: style, gitHubActions: environment.isGitHubActions,
                        standardError: standardError, standardOutput: standardOutput)
    }

    /// Prints diagnostics as `file:line:col: error: message`.
    func printDiagnostics(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics {
            let color: TerminalStyle.Color = diagnostic.severity == .error ? .red : .yellow
            let location = diagnostic.location.map { "\($0): " } ?? ""
            standardError.write("\(DisplayText.untrusted(location))\(style.paint("\(diagnostic.severity.rawValue):", color)) \(DisplayText.untrustedLines(diagnostic.message))\n")
        }
    }
}

/// `--trust-plugins`, for the commands that check lanes without running them.
struct PluginTrustOptions: ParsableArguments {
    @Flag(help: ArgumentHelp(
        "Let this command run step plugins from the checkout (.slipway/bin or PATH folders inside the project) to learn their options.",
        discussion: "Without it, such a plugin runs only when listed by SHA-256 in ~/.config/slipway/trusted-plugins (outside the checkout); a real 'slipway run' runs the plugins its lane uses."))
    var trustPlugins = false

    init() {}
}
