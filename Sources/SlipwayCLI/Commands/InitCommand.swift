import ArgumentParser
import Basics
import Foundation

/// `slipway init`: writes starter lanes.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write starter lanes: lanes/ci.yml (build and test) and lanes/release.yml.",
        discussion: "Existing files are kept unless --force is given. The templates are the files under templates/lanes in Slipway's repository."
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Overwrite existing lane files.")
    var force = false

    func run() throws {
        let env = global.environment()
        let directory = env.projectDirectory + "/lanes"
        do {
            try env.fileSystem.createDirectory(directory)
            for (name, text) in EmbeddedTemplates.lanes.sorted(by: { $0.key < $1.key }) {
                let path = "\(directory)/\(name)"
                if env.fileSystem.exists(path) && !force {
                    env.print("kept     lanes/\(name) (exists; --force overwrites it)")
                    continue
                }
                try env.fileSystem.writeAtomically(text, to: path)
                env.print("wrote    lanes/\(name)")
            }
            env.print("Next: 'slipway lanes' to see them, 'slipway run ci' to build and test.")
        } catch {
            throw Failure.report(error, in: env)
        }
    }
}
