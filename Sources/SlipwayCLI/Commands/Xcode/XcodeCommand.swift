import ArgumentParser
import Basics
import Xcode
import TestReports

/// `slipway xcode`: Apple app builds.
struct XcodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "xcode",
        abstract: "Apple app builds: make xcodebuild's output readable and its test results usable in CI.",
        discussion: """
            EXAMPLES:
              xcodebuild test -scheme App | slipway xcode log --junit report.xml
              slipway xcode log build.log --quiet
            """,
        subcommands: [XcodeLogCommand.self]
    )
}

/// `slipway xcode log [FILE] [--junit FILE] [--json] [--quiet]`.
struct XcodeLogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Format an xcodebuild log (a file, or standard input in a pipe) like xcbeautify.",
        discussion: """
            Prints one line per compile, link and test event, errors and warnings with \
            file:line:column and the source line under them, test failures with their message and \
            place, and a final count. Recognises the build steps of Xcode's build system, clang \
            and swiftc diagnostics, linker errors, XCTest (parallel testing and crash restarts \
            included), Swift Testing and the '** BUILD/TEST/ARCHIVE/EXPORT SUCCEEDED/FAILED **' \
            lines. Other lines are not shown (keep the raw log with 'tee'). The log is read as a \
            stream: the output follows xcodebuild as it runs, and memory does not grow with it.

            Under GitHub Actions (GITHUB_ACTIONS=true) errors, warnings and test failures are also \
            printed as ::error/::warning annotations, which GitHub shows on the pull request.

            Exit status: 0 the log shows success; 1 it shows a failed build, archive, export or \
            test (an error, a FAILED result line, or a test that failed and did not pass on a \
            retry); 2 the log cannot be read. Use 'set -o pipefail' to also fail on xcodebuild's \
            own status.

            EXAMPLES:
              set -o pipefail
              xcodebuild test -scheme App -destination 'platform=iOS Simulator,name=iPhone 16' \\
                | tee xcodebuild.log | slipway xcode log --junit report.xml
              slipway xcode log xcodebuild.log --quiet
              slipway xcode log xcodebuild.log --json > events.ndjson
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The log file (default: standard input; '-' too).", valueName: "file"))
    var file: String?

    @Option(help: ArgumentHelp("Write the tests as a JUnit XML report to this file.", valueName: "file"))
    var junit: String?

    @Flag(help: "Print NDJSON events (one JSON object a line) instead of readable lines.")
    var json = false

    @Flag(help: "Print only errors, warnings, test failures and the result.")
    var quiet = false

    func validate() throws {
        if json && quiet { throw ValidationError("--json prints every event; it cannot be combined with --quiet.") }
    }

    func run() async throws {
        let env = global.environment()
        let options = XcodeLogFormatter.Options(json: json, quiet: quiet, useColor: env.style.colors,
                                                githubAnnotations: env.environment.isGitHubActions, spillTestCases: true)
        let summary: XcodeLogSummary
        do {
            summary = try await XcodeLogFormatter(options: options).format(path: file == "-" ? nil : file.map(resolve),
                                                                           to: env.standardOutput)
        } catch {
            // The log given cannot be read: whatever the reader throws is bad input.
            throw Failure.report(InvalidInputError(error), in: env)
        }
        if let failure = summary.spoolFailure {
            env.printError("cannot keep the test results in a temporary file: \(failure). Set TMPDIR to a folder with free space.")
            throw ExitCodes.failure
        }
        if let junit {
            let path = resolve(junit)
            do {
                try summary.writeJUnit(name: "xcodebuild", to: path, fileSystem: env.fileSystem)
            } catch {
                env.printError("cannot write the JUnit report '\(junit)': \(errorText(error)). Check that its folder exists and is writable.")
                throw ExitCodes.failure
            }
        }
        if summary.failed { throw ExitCodes.failure }
    }

    /// A path relative to `-C`'s directory when one is given.
    private func resolve(_ path: String) -> String {
        path.hasPrefix("/") || global.directory == nil ? path : global.projectDirectory + "/" + path
    }
}
