import ArgumentParser
import PBXProj

/// `slipway xcodeproj`: read, check and edit Xcode project files.
struct XcodeprojCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "xcodeproj",
        abstract: "Read, check and edit Xcode projects (project.pbxproj) without touching bytes you did not ask to change.",
        discussion: """
            Slipway reads project.pbxproj losslessly: a project it has not edited is written back \
            byte for byte, and an edit changes only the lines of the objects it touches and the \
            comments naming them. Run 'verify' on a project before trusting Slipway with it.

            EXAMPLES:
              slipway xcodeproj verify App.xcodeproj
              slipway xcodeproj groups App.xcodeproj --json
              slipway xcodeproj format App.xcodeproj --check
              slipway xcodeproj lint App.xcodeproj --sarif lint.sarif
              slipway xcodeproj settings App.xcodeproj --target App --configuration Release
              slipway xcodeproj set-setting App.xcodeproj MARKETING_VERSION 2.1.0 --target App
              slipway xcodeproj diff App.xcodeproj --rev HEAD~1
              slipway xcodeproj merge --install
            """,
        subcommands: [
            XcodeprojVerifyCommand.self,
            XcodeprojGroupsCommand.self,
            XcodeprojFormatCommand.self,
            XcodeprojLintCommand.self,
            XcodeprojSettingsCommand.self,
            XcodeprojSetSettingCommand.self,
            XcodeprojDiffCommand.self,
            XcodeprojMergeCommand.self,
        ]
    )
}

/// `slipway xcodeproj verify PATH`.
struct XcodeprojVerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check that Slipway reads the project and writes it back without changing a byte.",
        discussion: """
            Reads the project, writes it back in memory and compares the bytes; also checks that \
            every referenced object exists and that the group tree has no cycle. Nothing is \
            written. Exit status: 0 identical, 1 a byte would change (the first differing line \
            is shown), 2 the file is not a readable project (the error names line and column). \
            References to missing objects are printed as warnings: Xcode opens such projects too.

            EXAMPLE:
              slipway xcodeproj verify MyApp.xcodeproj
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: XcodeprojSupport.pathHelp)
    var path: String

    func run() async throws {
        let env = global.environment()
        let path = XcodeprojSupport.resolve(self.path, global)
        let (project, file, bytes) = try XcodeprojSupport.loadWithBytes(path, in: env)
        let firstDifference: LineDifference?
        do {
            firstDifference = LineDifference.first(bytes, try project.serialized())
        } catch {
            throw XcodeprojSupport.report(error, file: file, in: env)
        }
        let diagnostics = project.validate()
        XcodeprojSupport.print(diagnostics, file: file, in: env)
        if diagnostics.contains(where: { $0.severity == .error }) { throw Failure.invalidInput(in: env) }
        if let difference = firstDifference {
            let why = project.sourceFormat == .xml ? " (an XML property list is written in Xcode's ASCII form)" : ""
            env.printError("\(file.pbxprojPath): writing the project back would change it\(why); \(XcodeprojSupport.describe(difference))")
            throw ExitCodes.failure
        }
        env.print("\(file.pbxprojPath): OK, written back byte for byte")
    }
}

/// `slipway xcodeproj format PATH [--check]`.
struct XcodeprojFormatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "format",
        abstract: "Rewrite the project exactly as Xcode would write it, or check that it already is.",
        discussion: """
            Xcode's form: sections by isa, objects by id, 'isa' first and the other keys in byte \
            order, build files and file references on one line, tab indentation, Xcode's quoting \
            and the /* comments */ Xcode derives. With --check nothing is written: exit 1 and the \
            first differing line when the project is not in that form (for CI).

            EXAMPLES:
              slipway xcodeproj format App.xcodeproj
              slipway xcodeproj format App.xcodeproj/project.pbxproj --check
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: XcodeprojSupport.pathHelp)
    var path: String

    @Flag(help: "Only check; exit 1 when the project is not in Xcode's form.")
    var check = false

    func run() async throws {
        let env = global.environment()
        let path = XcodeprojSupport.resolve(self.path, global)
        // --check only reads one file, which writers replace atomically: no lock needed.
        let lock = check ? nil : try XcodeprojSupport.lock(path, in: env)
        defer { lock?.release() }
        // Read and written through the door (env.fileSystem): never through a link, at most a
        // project file's cap.
        let (project, file, bytes) = try XcodeprojSupport.loadWithBytes(path, in: env)
        let canonical: [UInt8]
        do {
            canonical = try project.canonicalSerialized()
        } catch {
            throw XcodeprojSupport.report(error, file: file, in: env)
        }
        guard let difference = LineDifference.first(bytes, canonical) else {
            env.print("\(file.pbxprojPath): already in Xcode's form")
            return
        }
        let changedLineCount = LineDifference.changedLineCount(bytes, canonical)
        if check {
            env.printError("\(file.pbxprojPath) is not in Xcode's form (about \(changedLineCount) lines differ); run 'slipway xcodeproj format \(path)' to rewrite it\n\(XcodeprojSupport.describe(difference))")
            throw ExitCodes.failure
        }
        do {
            try env.fileSystem.writeAtomically(canonical, to: file.pbxprojPath)
        } catch {
            throw XcodeprojSupport.report(error, file: file, in: env)
        }
        env.print("\(file.pbxprojPath): rewritten in Xcode's form (about \(changedLineCount) lines changed)")
    }
}
