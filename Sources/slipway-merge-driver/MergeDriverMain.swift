import Basics
import PBXProj
import XcodeprojMerge

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `slipway-merge-driver [--versions higher|conflict] [--no-color] BASE OURS THEIRS`: git's merge
/// driver for `project.pbxproj`, the same as `slipway xcodeproj merge BASE OURS THEIRS` (one
/// function, `MergeDriverRun`, does the work of both: same bytes written, same lines printed, same
/// exit status) in a binary that starts several times faster, since it links only the merge
/// (no libgit2, no networking, no command tree). `slipway xcodeproj merge --install` writes its
/// path into `.git/config` when it sits beside `slipway`.
@main
enum MergeDriverMain {
    static let usage = """
        USAGE: slipway-merge-driver [--versions higher|conflict] [--no-color] BASE OURS THEIRS

        git's merge driver for project.pbxproj: merges BASE, OURS and THEIRS (git's %O %A %B) into \
        OURS, as 'slipway xcodeproj merge' does (see 'slipway xcodeproj merge --help'). Installed \
        by 'slipway xcodeproj merge --install'.

        """

    static func main() async {
        let environment = Environment.current
        var style = TerminalStyle.detect(for: .standardOutput, environment: environment)
        let standardError = TerminalSafeOutput(FileDescriptorOutput.standardError)
        let standardOutput = TerminalSafeOutput(FileDescriptorOutput.standardOutput)
        var versions = PBXProjVersionBumps.higher
        var files: [String] = []
        var arguments = CommandLine.arguments.dropFirst()[...]
        var usageError: String?
        var optionsEnded = false
        while let argument = arguments.popFirst() {
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                files.append(argument)
            } else if argument == "--" {
                optionsEnded = true
            } else if argument == "-h" || argument == "--help" {
                FileDescriptorOutput.standardOutput.write(usage)
                exit(0)
            } else if argument == "--no-color" {
                style.colors = false
            } else if argument == "--versions" || argument.hasPrefix("--versions=") {
                let value = argument == "--versions" ? arguments.popFirst() : String(argument.dropFirst("--versions=".count))
                guard let value, let parsed = PBXProjVersionBumps(rawValue: value) else {
                    usageError = "--versions takes 'higher' or 'conflict', got \(value.map { "'\($0)'" } ?? "nothing")"
                    break
                }
                versions = parsed
            } else {
                usageError = "unknown option '\(argument)'"
                break
            }
        }
        if usageError == nil, files.count != 3 {
            usageError = "expected three files, BASE OURS THEIRS (git passes %O %A %B), got \(files.count)"
        }
        if let usageError {
            ErrorLine.write(usageError, style: style, gitHubActions: environment.isGitHubActions,
                            standardError: standardError, standardOutput: standardOutput)
            standardError.write(usage)
            exit(64)
        }
        let run = MergeDriverRun(environment: environment, style: style, standardError: standardError,
                                 standardOutput: standardOutput, processRunner: LocalProcessRunner())
        exit(await run.run(base: files[0], ours: files[1], theirs: files[2], versions: versions))
    }
}
