import ArgumentParser
import Basics
import Foundation

/// `slipway init`: writes starter lanes.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write starter lanes: lanes/ci.yml (build and test) and lanes/release.yml, or an iOS app's release lane.",
        discussion: """
            --template package (the default) writes lanes/ci.yml and lanes/release.yml for a Swift \
            package; --template ios writes lanes/ios-release.yml (test on a simulator, archive, export \
            an .ipa, changelog, tag, upload; it needs macOS with Xcode to run). Existing files are \
            kept unless --force is given. The templates are the files under templates/lanes and \
            templates/ios in Slipway's repository.
            """
    )

    /// Which starter lanes.
    enum Template: String, ExpressibleByArgument, CaseIterable {
        case package, ios
    }

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Overwrite existing lane files.")
    var force = false

    @Option(help: "package (ci.yml and release.yml) or ios (ios-release.yml).")
    var template: Template = .package

    func run() throws {
        let env = global.environment()
        let directory = env.projectDirectory + "/lanes"
        do {
            try env.fileSystem.createDirectory(directory)
            let lanes = template == .ios ? EmbeddedTemplates.ios : EmbeddedTemplates.lanes
            for (name, text) in lanes.sorted(by: { $0.key < $1.key }) {
                let path = "\(directory)/\(name)"
                if env.fileSystem.exists(path) && !force {
                    env.print("kept     lanes/\(name) (exists; --force overwrites it)")
                    continue
                }
                try env.fileSystem.writeAtomically(text, to: path)
                env.print("wrote    lanes/\(name)")
            }
            env.print(template == .ios
                ? "Next: 'slipway validate ios-release' on a Mac with Xcode, then 'slipway run ios-release --dry-run' with the inputs the lane lists."
                : "Next: 'slipway lanes' to see them, 'slipway run ci' to build and test.")
        } catch {
            throw Failure.report(error, in: env)
        }
    }
}
