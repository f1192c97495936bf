import Basics
import Foundation

/// `run`: a shell command. A command can hand outputs to later steps by appending
/// `name=value` lines to the file named by `$SLIPWAY_OUTPUT` (like GitHub Actions'
/// `$GITHUB_OUTPUT`).
public struct RunStep: Step {
    public static let description = StepDescription(
        id: "run",
        summary: "Run a shell command; it may set outputs through $SLIPWAY_OUTPUT",
        discussion: """
            The command runs with `SHELL -e -c COMMAND` in the step's working directory and \
            environment (the step keys `env:` and `working-directory:` apply). A non-zero exit \
            fails the step. To set outputs, append `name=value` lines to the file named by \
            $SLIPWAY_OUTPUT. The output `exit-code` is always set.
            """,
        options: [
            .required("command", .string, "The command line, run by the shell (may span lines)."),
            .optional("shell", .string, default: .string("/bin/sh"), "The shell that runs the command."),
        ],
        outputs: [OutputSpec("exit-code", "The command's exit code (0 when the step succeeds).", type: .int)],
        hasDynamicOutputs: true,
        primaryOption: "command",
        examples: [
            StepExample("A one-line command", "- run: make lint"),
            StepExample("Set an output for later steps", """
                - run: { command: 'echo "sha=$(git rev-parse --short HEAD)" >> "$SLIPWAY_OUTPUT"' }
                  id: head
                - run: echo "building ${{ steps.head.outputs.sha }}"
                """),
            StepExample("Environment, directory and a time limit", """
                - run: { command: ./scripts/package.sh, shell: /bin/bash }
                  env: { TARGET: release }
                  working-directory: tools
                  timeout: 5m
                """),
        ]
    )

    /// The command line.
    public let command: String
    /// The shell.
    public let shell: String

    public init(options: StepOptions) throws {
        command = try options.requiredString("command")
        shell = try options.requiredString("shell")
        guard !command.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw StepError.invalidOption(name: "command", problem: "is empty. Give the command to run.")
        }
    }

    public func plan(in context: StepContext) throws -> [Effect] {
        [Effect(.process, "\(shell) -e -c \(ShellQuoting.quote(command)) (in \(context.workingDirectory))")]
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        let outputFile = NSTemporaryDirectory() + "slipway-output-\(UUID().uuidString)"
        guard FileManager.default.createFile(atPath: outputFile, contents: nil) else {
            throw StepError.failed("could not create the outputs file '\(outputFile)'")
        }
        defer { try? FileManager.default.removeItem(atPath: outputFile) }
        var spec = context.processSpec(shell, ["-e", "-c", command])
        spec.environment["SLIPWAY_OUTPUT"] = outputFile
        let result = try await context.runProcess(spec)
        var outputs = Self.parseOutputs((try? context.fileSystem.readText(outputFile)) ?? "")
        switch result.status {
        case .exited(let code):
            outputs["exit-code"] = String(code)
            guard code == 0 else { throw StepError.failed("the command exited with code \(code)") }
        case .signalled(let signal):
            throw StepError.failed("the command was killed by signal \(signal)")
        }
        return outputs
    }

    /// `name=value` lines; `name<<DELIMITER` ... `DELIMITER` for multi-line values.
    static func parseOutputs(_ text: String) -> StepOutputs {
        var outputs: StepOutputs = [:]
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.popFirst() {
            if let range = line.range(of: "<<"), !line[..<range.lowerBound].contains("=") {
                let name = String(line[..<range.lowerBound])
                let delimiter = String(line[range.upperBound...])
                var value: [Substring] = []
                while let next = lines.popFirst(), next != delimiter { value.append(next) }
                outputs[name] = value.joined(separator: "\n")
            } else if let equals = line.firstIndex(of: "=") {
                outputs[String(line[..<equals])] = String(line[line.index(after: equals)...])
            }
        }
        return outputs
    }
}
