import ArgumentParser
import Basics
import FastlaneImport
import Foundation
import Xcode

/// `slipway init`: writes starter lanes.
struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write starter lanes: lanes/ci.yml (build and test) and lanes/release.yml, or an iOS app's release lane.",
        discussion: """
            --template package (the default) writes lanes/ci.yml and lanes/release.yml for the Swift \
            package in this folder, and picks the release lane from its products: for an executable, \
            build, archive, checksums, sign, tag and upload; for a library, test, version, changelog, \
            tag, push and a GitHub release, with no build or archive. It reads the products with \
            'swift package dump-package', which runs Package.swift (it is code: run init on \
            projects you trust), and from Package.swift's text when swift cannot; it prints what it \
            found. --template executable or --template library chooses without looking. \
            --template ios writes lanes/ios-release.yml (test on a simulator, archive, export \
            an .ipa, changelog, tag, upload; it needs macOS with Xcode to run) for the Xcode \
            project in this folder: it finds the workspace or project, its shared schemes, the \
            app and extension targets with their bundle ids, and where the version is kept, and \
            prints what it found. --from-fastlane reads fastlane/Fastfile (with Appfile and \
            Matchfile) without running it and writes one lane per fastlane lane, translating \
            gym, scan, match, pilot, increment_build_number, increment_version_number, \
            changelog_from_git_commits, ensure_git_status_clean, add_git_tag, push_to_git_remote, \
            commit_version_bump and sh; every action, argument or Ruby statement it could not \
            translate is listed with its line, and kept as a comment at the end of the lane. \
            Existing files are kept unless --force is given. The templates are the files under \
            templates/lanes and templates/library in Slipway's repository; templates/ios holds what \
            --template ios writes in a folder without an Xcode project.
            """
    )

    /// Which starter lanes.
    enum Template: String, ExpressibleByArgument, CaseIterable {
        case package, executable, library, ios
    }

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Overwrite existing lane files.")
    var force = false

    @Option(help: "package (ci.yml and release.yml for the package's products), executable, library, or ios (ios-release.yml for the Xcode project here).")
    var template: Template = .package

    @Flag(help: "Translate fastlane/Fastfile's lanes (with Appfile and Matchfile) into lanes/NAME.yml, listing what was not translated.")
    var fromFastlane = false

    @Flag(help: "With --from-fastlane: print the translation as JSON.")
    var json = false

    func run() async throws {
        let env = global.environment()
        if fromFastlane || template == .ios {
            try InitFromProject(env: env, force: force, json: json).run(fromFastlane: fromFastlane)
            return
        }
        let directory = env.projectDirectory + "/lanes"
        let kind: PackageProducts.Kind
        switch template {
        case .ios, .executable: kind = .executable
        case .library: kind = .library
        case .package:
            let products = await PackageProducts.detect(in: env.projectDirectory, env: env)
            env.print(products.finding + ".")
            kind = products.kind
        }
        do {
            try env.fileSystem.createDirectory(directory)
            let lanes = kind == .library ? EmbeddedTemplates.lanes.merging(EmbeddedTemplates.library) { $1 } : EmbeddedTemplates.lanes
            // Every lane file it would write is checked before the first is: none goes through a link.
            try env.checkWritable(lanes.keys.map { "\(directory)/\($0)" }, overwriting: force)
            for (name, text) in lanes.sorted(by: { $0.key < $1.key }) {
                let path = "\(directory)/\(name)"
                if env.fileSystem.exists(path) && !force {
                    env.print("kept     lanes/\(name) (exists; --force overwrites it)")
                    continue
                }
                try env.fileSystem.writeAtomically(text, to: path)
                env.print("wrote    lanes/\(name)")
            }
            env.print("Next: 'slipway lanes' to see them, 'slipway run ci' to build and test, "
                    + (kind == .library ? "'slipway run release --input repository=OWNER/NAME --dry-run' to preview a release."
                                        : "'slipway run release --input product=NAME --dry-run' to preview a release."))
        } catch {
            throw Failure.report(error, in: env)
        }
    }
}
