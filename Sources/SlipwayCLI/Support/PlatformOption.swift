import ArgumentParser
import Steps

/// `--platform macos|linux`: check (and, with `run --dry-run`, plan) a lane as on that platform.
extension Platform: ExpressibleByArgument {}

/// `--platform`, for the commands that check lanes without running them.
struct PlatformOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Check the lane as on this platform (default: this machine's); with run, another platform needs --dry-run.",
        discussion: "From Linux, '--platform macos' runs every check of a macOS lane (xcode.* options and schemes, sign.codesign, references) instead of refusing its macOS-only steps.",
        valueName: "platform"))
    var platform: Platform?

    init() {}

    /// The platform to check for.
    var target: Platform { platform ?? .current }

    /// " (checked as on macos)" when it is not this machine's, else empty.
    var note: String { target == .current ? "" : " (checked as on \(target.rawValue))" }
}
