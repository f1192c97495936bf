import ArgumentParser

/// Slipway's exit codes, documented in `slipway --help` and the README. Errors say which kind of
/// failure they are (`Basics.ExitCodeProviding`); `Failure.exitCode(for:)` is the one table from
/// kinds to these codes.
public enum ExitCodes {
    /// A step failed (in a dry run: would fail), a check found differences, or a verification
    /// found drift.
    public static let failure = ExitCode(1)
    /// An input file is invalid: a lane file, pbxproj, Toolfile or lockfile (nothing was run or
    /// changed).
    public static let invalidInput = ExitCode(2)
    /// An internal error: a bug in Slipway. Please report it.
    public static let internalError = ExitCode(3)
    /// Nothing to release: `slipway version --next` or `slipway changelog` found no feat, fix,
    /// perf or breaking commit since the last release. Not a failure and not bad input, so a
    /// script can tell it apart from both (`slipway version --next || [ $? -eq 4 ]`).
    public static let nothingToRelease = ExitCode(4)
    /// Busy: another slipway holds the lock of the project, lane or tools cache this command
    /// needs; nothing was run or changed. Try again when it has finished (75 is sysexits'
    /// EX_TEMPFAIL, "try again later").
    public static let busy = ExitCode(75)
    /// The run was interrupted by SIGINT or SIGTERM (`finally` steps still ran).
    public static let interrupted = ExitCode(130)

    static let helpText = """
        EXIT CODES:
          0    success
          1    a step failed (a dry run: would fail), a --check found differences, or
               verify found drift
          2    invalid input: a lane file, pbxproj, Toolfile or lockfile (nothing ran)
          3    internal error (a bug in Slipway; please report it)
          4    nothing to release: version --next or changelog found no feat, fix, perf
               or breaking commit since the last release tag
          64   bad command-line usage
          75   busy: another slipway is working on the same project, lane or tools
               cache (its pid is printed); nothing ran or changed, try again later
          130  interrupted by SIGINT/SIGTERM (finally steps still ran)
        """
}
