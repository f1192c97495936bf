import ArgumentParser
import Basics
import Foundation
import Pins

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `slipway exec TOOL -- ARGS`: runs the pinned executable.
struct ExecCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exec",
        abstract: "Run a pinned tool with arguments, after verifying it.",
        discussion: """
            The tool is verified first (checksum and version against Toolfile.lock); when it \
            drifted, nothing runs and the verify message says why (exit 1). Otherwise slipway \
            replaces itself with the tool, which keeps the tool's exit code and signals.

            Examples:
              slipway exec swiftlint -- lint --strict
              slipway exec swiftformat -- --lint .
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The tool, as named in the Toolfile.")
    var tool: String

    @Argument(parsing: .captureForPassthrough, help: "Arguments for the tool (after --).")
    var arguments: [String] = []

    func run() async throws {
        let env = global.environment()
        let path: String
        do {
            let verifier = ToolVerifier(context: try env.pinsContext(online: false))
            try await verifier.requireVerified(names: [tool])
            path = try verifier.executablePath(for: tool)
        } catch {
            throw Failure.report(error, in: env)
        }
        let passed = arguments.first == "--" ? Array(arguments.dropFirst()) : arguments
        var argv: [UnsafeMutablePointer<CChar>?] = ([path] + passed).map { strdup($0) }
        argv.append(nil)
        execv(path, argv)
        env.printError("could not run '\(path)': \(String(cString: strerror(errno))).")
        throw ExitCodes.failure
    }
}
