import Basics
import Foundation
import Publish

/// `checksums`: a SHA256SUMS file that `sha256sum -c` checks.
public struct ChecksumsStep: Step {
    public static let description = StepDescription(
        id: "checksums",
        summary: "Write a SHA256SUMS file for release files",
        discussion: """
            Hashes each matched file (streamed, 1 MiB at a time) and writes lines in GNU \
            coreutils' format, '<sha256>  <name>', sorted by name, names relative to the \
            checksum file's folder, so that 'sha256sum -c SHA256SUMS' run there checks them. \
            The checksum file itself and signature files (.sig, .minisig, .asc) are never \
            listed, so re-running over 'dist/*' gives the same file.
            """,
        options: [
            .required("files", .list(.string), "The files or patterns (dist/*.tar.gz; rules in docs/patterns.md) to list."),
            .optional("output", .string, default: .string("dist/SHA256SUMS"), "The checksum file; the files must be in its folder."),
        ],
        outputs: [OutputSpec("path", "The checksum file's path (relative to the working directory when inside it).", file: true)],
        examples: [
            StepExample("Checksums of every archive", "- checksums: { files: [\"dist/*.tar.gz\", \"dist/*.zip\"] }"),
            StepExample("A named checksum file", """
                - checksums: { files: ["dist/*"], output: dist/slipway-SHA256SUMS.txt }
                """),
        ]
    )

    let files: [String]
    let output: String

    public init(options: StepOptions) throws {
        files = try options.strings("files")
        output = try options.requiredString("output")
        guard !files.isEmpty else { throw StepError.invalidOption(name: "files", problem: "is empty. List the files to hash.") }
    }

    public func plan(in context: StepContext) throws -> [Effect] {
        [Effect(.write, "\(output) (SHA-256 of \(files.joined(separator: ", ")))")]
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        let outputPath = context.resolve(output)
        let matches = try PublishStepSupport.files(files, in: context)
            .map(\.path)
            .filter { $0 != outputPath && !PublishStepSupport.isSignature($0) }
        let lines = try ChecksumFile(fileSystem: context.fileSystem, streams: LocalFileStreams()).write(files: matches, to: outputPath)
        context.events.log(.info, "wrote \(output) with \(lines.count) checksum(s)")
        return ["path": PublishStepSupport.display(outputPath, in: context)]
    }
}
