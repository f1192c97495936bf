import ArgumentParser
import Basics
import Foundation
import Lanes
import Steps

/// `slipway run LANE`.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a lane.",
        discussion: """
            The lane is validated completely first (steps, options, expressions, inputs, \
            secrets); nothing runs when anything is wrong (exit 2). Steps then run in order, \
            'finally' steps after them even on failure or Ctrl-C. A journal under \
            .slipway/runs/LANE/ lets --resume continue after the last successful step. One run \
            of a lane at a time: a second one (not --dry-run) exits 75 naming the first one's pid.

            Secrets are read from environment variables named in the lane's 'secrets:' and are \
            masked in all output; they are never accepted as arguments.

            Examples:
              slipway run ci
              slipway run release --input bump=minor --dry-run
              slipway run release --resume
              slipway run ios --dry-run --platform macos   (check and plan a macOS lane from Linux)
              slipway run release --events events.ndjson --junit report.xml
              slipway run release --only archive --only upload   (one CI job of an exported pipeline)

            --only runs just the named steps (in lane order); earlier steps' outputs, statuses \
            and git changes come from the hand-over records in .slipway/ci/ that earlier jobs \
            wrote, and a record is written for each step run (see docs/ci.md).

            --dry-run prints every step's plan (the exact command lines, e.g. xcodebuild's) and \
            makes the read-only checks steps can make (git.ensure-clean on a dirty tree, a scheme \
            missing from the project); it changes nothing, and exits 1 listing every step that \
            would fail.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The lane: a file lanes/LANE.yml.")
    var lane: String

    @Option(name: .customLong("input"), help: ArgumentHelp("An input value (repeatable).", valueName: "name=value"))
    var inputs: [String] = []

    @Flag(help: "Print what each step would do; change nothing.")
    var dryRun = false

    @Flag(help: "Continue the last run of this lane after its last successful step, reusing earlier outputs.")
    var resume = false

    @Option(help: ArgumentHelp("Start at this step; earlier steps' outputs come from the last run.", valueName: "step"))
    var from: String?

    @Option(name: .customLong("only"), help: ArgumentHelp(
        "Run only this step (repeatable, or comma-separated); earlier steps come from the hand-over records in .slipway/ci/.",
        valueName: "step"))
    var only: [String] = []

    @Option(help: ArgumentHelp("Write every event as NDJSON to this file.", valueName: "file"))
    var events: String?

    @Option(help: ArgumentHelp("Write a JUnit XML report to this file.", valueName: "file"))
    var junit: String?

    @Option(help: ArgumentHelp("The folder with the lane files.", valueName: "dir"))
    var lanes = "lanes"

    @Flag(help: "Also print debug messages.")
    var verbose = false

    @OptionGroup var plugins: PluginTrustOptions

    @OptionGroup var platform: PlatformOption

    func validate() throws {
        if platform.target != .current && !dryRun {
            let target = platform.target.rawValue, here = Platform.current.rawValue
            throw ValidationError("--platform \(target) checks and plans the lane as on \(target), which needs --dry-run: this machine runs \(here), where a real run of \(target)-only steps cannot happen. Add --dry-run, or run the lane on \(target).")
        }
        if resume && from != nil { throw ValidationError("--resume and --from cannot be used together: --resume picks the step itself.") }
        do { try runOptions().checkCombination() } catch { throw ValidationError(error.localizedDescription) }
        for input in inputs where !input.contains("=") {
            throw ValidationError("--input '\(input)' must be NAME=VALUE.")
        }
    }

    func run() async throws {
        let env = global.environment()
        let options = runOptions()
        let signals = SignalForwarder(interruption: options.interruption)
        defer { signals.stop() }
        do {
            let summary = try await workspace(env).run(lane, options: options, reporters: try reporters(env))
            switch summary.status {
            case .succeeded: return
            case .failed: throw ExitCodes.failure
            case .cancelled: throw ExitCodes.interrupted
            }
        } catch {
            throw Failure.report(error, in: env)
        }
    }

    /// The run's options, as the flags give them.
    private func runOptions() -> LaneRunner.Options {
        var options = LaneRunner.Options()
        options.isDryRun = dryRun
        options.resume = resume
        options.fromStep = from
        options.only = only
        for input in inputs {
            let parts = input.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            options.inputs[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return options
    }

    /// A real run executes the plugins its lane uses; a dry run only with `--trust-plugins`
    /// or the trust file (it would run them to describe and plan).
    private func workspace(_ env: CommandEnvironment) -> LaneWorkspace {
        env.workspace(lanes: lanes, runsCheckoutPlugins: !dryRun || plugins.trustPlugins, platform: platform.target)
    }

    private func reporters(_ env: CommandEnvironment) throws -> [any RunReporter] {
        var reporters: [any RunReporter] = [ConsoleReporter(output: env.standardOutput, style: env.style, verbose: verbose)]
        if env.environment.isGitHubActions { reporters.append(GitHubActionsReporter(output: env.standardOutput)) }
        if let events { reporters.append(try NDJSONReporter(path: absolute(events, env), fileSystem: env.fileSystem)) }
        if let junit {
            let path = absolute(junit, env)
            // Checked before the lane runs, not when the report is written at its end: a path in
            // the project that leads outside through a link is refused at once (the door).
            if let door = env.fileSystem as? ProjectFileSystem { _ = try door.files.checkedForWriting(path) }
            reporters.append(JUnitReporter(path: path, fileSystem: env.fileSystem))
        }
        return reporters
    }

    private func absolute(_ path: String, _ env: CommandEnvironment) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}

/// Turns SIGINT and SIGTERM into an `Interruption` while a lane runs (the running steps' process
/// groups are stopped, then `finally` steps run; a second signal stops those too).
///
/// Which thread a signal reaches depends on the threads' masks, which Slipway does not fully
/// control: libdispatch's worker threads block every asynchronous signal, and a parent may start
/// us with them blocked. So there are two ways in, and a signal takes exactly one of them:
/// - a thread that does not block it runs the handler, which only writes the signal's number to
///   a pipe (async-signal-safe); a thread of its own reads the pipe;
/// - when every thread blocks it, it stays pending for the process, and a thread waiting in
///   sigwait(2) takes it.
/// (A dispatch signal source alone missed signals on Linux in full test-suite runs.)
final class SignalForwarder: @unchecked Sendable {
    private let reader: Thread
    private let writeEnd: Int32

    init(interruption: Interruption) {
        signal(SIGPIPE, SIG_IGN)
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        let readEnd = ends[0]
        writeEnd = ends[1]
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        signalPipe = writeEnd
        reader = Thread {
            let byte = UnsafeMutableRawBufferPointer.allocate(byteCount: 1, alignment: 1)
            defer { byte.deallocate() }
            // One byte per signal; the end (or an error) means the write end was closed: the run is over.
            while (try? FileDescriptorIO.read(readEnd, into: byte)) == 1 { interruption.trigger() }
            close(readEnd)
        }
        reader.name = "slipway-signals"
        reader.start()
        for number in [SIGINT, SIGTERM] { signal(number, forwardSignal) }
        let waiter = Thread {
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, SIGINT)
            sigaddset(&set, SIGTERM)
            pthread_sigmask(SIG_BLOCK, &set, nil)
            var number: Int32 = 0
            while sigwait(&set, &number) == 0 { interruption.trigger() }
        }
        // It stays in sigwait until the process exits: a run is the last thing `slipway run` does.
        waiter.name = "slipway-sigwait"
        waiter.start()
    }

    func stop() {
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        signalPipe = -1
        close(writeEnd)
    }
}

/// The pipe the signal handler writes to (-1: none). Written before the handler is installed
/// and after it is removed, so the handler never sees it change.
nonisolated(unsafe) private var signalPipe: Int32 = -1

/// The signal handler: async-signal-safe (one write(2), errno preserved).
private func forwardSignal(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    if signalPipe >= 0 { _ = write(signalPipe, &byte, 1) }
    errno = saved
}
