import ArgumentParser
import Basics
import Foundation
import Pins

/// `slipway deps`: the project's other lockfiles.
struct DepsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deps",
        abstract: "Audit the project's dependency lockfiles (Package.resolved, Podfile.lock, Cartfile.resolved, Gemfile.lock).",
        subcommands: [DepsVerifyCommand.self]
    )
}

/// `slipway deps verify`.
struct DepsVerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check offline that the lockfiles agree with their manifests and installs.",
        discussion: """
            Package.resolved: schema (v1-v3), originHash, each pin against Package.swift's \
            requirement (via 'swift package dump-package' when swift is on PATH; cached), \
            checkouts in .build. Xcode's Package.resolved (in X.xcodeproj or \
            X.xcworkspace): every package requirement of the project(s) in project.pbxproj \
            has a pin that meets it; local packages exist, and their own requirements \
            are met (with swift on PATH). Podfile.lock: PODFILE CHECKSUM, DEPENDENCIES vs PODS, \
            Pods/Manifest.lock, COCOAPODS vs Gemfile.lock. Cartfile vs Cartfile.resolved. \
            Gemfile.lock: DEPENDENCIES (bundler against BUNDLED WITH), PLATFORMS, CHECKSUMS. Exit 0: all good; 1: drift; \
            2: a lockfile cannot be read.

            Examples:
              slipway deps verify
              slipway deps verify --json
            """
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print JSON (sorted keys): expected, found and file for every check.")
    var json = false

    func run() async throws {
        let env = global.environment()
        let report: DepsReport
        do {
            report = try await DependencyAuditor(context: try env.pinsContext(online: false)).audit()
        } catch {
            throw Failure.report(error, in: env)
        }
        if json {
            try env.printJSON(report)
        } else {
            DepsVerifyCommand.printHuman(report, env: env)
        }
        if !report.isOK { throw ExitCodes.failure }
    }

    /// Each file's line, then that file's failures indented under it (so a detail is never read
    /// as the next file's), then failures that belong to no listed file, then the notes.
    static func printHuman(_ report: DepsReport, env: CommandEnvironment) {
        let style = env.style
        var shown = Set<Int>()
        for file in report.files {
            let findings = report.findings.filter { $0.file == file }
            let failures = report.failures.enumerated().filter { belongs($0.element.file, to: file) }
            if findings.isEmpty && report.unchecked.contains(file) {
                env.print("\(style.paint("-", .yellow)) \(file): not checked (see the note below)")
                continue
            }
            let mark = failures.isEmpty ? style.paint("✓", .green) : style.paint("✗", .red)
            env.print("\(mark) \(file): \(findings.count) check(s), \(failures.count) failed")
            for (index, failure) in failures where !shown.contains(index) {
                shown.insert(index)
                env.print("    " + failure.summary)
            }
        }
        for (index, failure) in report.failures.enumerated() where !shown.contains(index) {
            env.print("    " + failure.summary)
        }
        for note in report.notes { env.print(style.paint("note: ", .dim) + note) }
    }

    /// A failure in `.build/...` (the checkouts) belongs to the Package.resolved that pins them.
    private static func belongs(_ failureFile: String, to file: String) -> Bool {
        failureFile == file || (failureFile.hasPrefix(".build") && file.hasSuffix("Package.resolved"))
    }
}
