import Basics
import Foundation

extension XcodeRunOptions {
    /// What a dry run says an `xcode.*` step would do: which Xcode it would use, the exact
    /// `xcodebuild` command line the run passes (`arguments`, shell-quoted) and where the raw log
    /// `name` would go. Nothing is looked up: choosing an Xcode needs a Mac, and a dry run may run
    /// on Linux (`--platform macos`).
    func plan(_ arguments: [String], name: String, in context: StepContext) -> [Effect] {
        let runner = XcodebuildRunner(options: self, context: context)
        let log = runner.display(runner.logPath(name: name))
        return [
            Effect(.check, xcodeChoice(in: context)),
            Effect(.process, context.processSpec("xcodebuild", arguments).commandLine),
            Effect(.write, "\(log) (the raw xcodebuild log)"),
        ]
    }

    /// Which Xcode the run would use, as `XcodebuildRunner.environment()` chooses it.
    private func xcodeChoice(in context: StepContext) -> String {
        let developer = context.environment["DEVELOPER_DIR"]
        if let developer, !developer.isEmpty {
            return "use the Xcode at DEVELOPER_DIR=\(developer) (set in the environment; it wins over 'xcode:')"
        }
        if xcode != nil || developer != nil {
            let folder = context.environment["SLIPWAY_XCODE_APPLICATIONS"] ?? "/Applications"
            let which = xcode.map { "the Xcode matching '\($0)'" } ?? "the newest Xcode"
            return "choose \(which) in \(folder) and set DEVELOPER_DIR to it"
        }
        return "use the Xcode that xcode-select points to (no 'xcode:' option, no DEVELOPER_DIR)"
    }
}
