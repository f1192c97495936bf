import Basics
import Foundation
import Networking
import Publish
@testable import Steps
import TestSupport
import TestThreads
import Testing

/// The archive, checksums, sign, sign.codesign and upload steps run for real on temporary
/// folders (signatures checked with signify-openbsd, checksums with sha256sum).
@Suite(.dedicatedThreads) struct PublishStepTests {
    final class Events: StepEventSink, @unchecked Sendable {
        let lock = NSLock()
        var lines: [String] = []
        func log(_ level: LogLevel, _ message: String) { lock.withLock { lines.append("\(level): \(message)") } }
        func progress(fraction: Double?, message: String) { lock.withLock { lines.append("progress: \(message)") } }
        func processOutput(_ stream: ProcessStream, line: String) { lock.withLock { lines.append(line) } }
    }

    func context(_ folder: TemporaryDirectory, environment: [String: String] = [:], events: Events = Events()) -> StepContext {
        StepContext(laneName: "release", stepID: "step", workingDirectory: folder.path, environment: Environment.current.merging(environment),
                    fileSystem: LocalFileSystem(), processRunner: LocalProcessRunner(), events: events,
                    services: StepServices(httpClient: SystemHTTPClient(), sleep: { _ in }))
    }

    func project() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(prefix: "slipway-publish-step")
        try folder.write("build/tool", "#!/bin/sh\necho tool\n")
        chmod(folder.path + "/build/tool", 0o755)
        try folder.write("LICENSE", "MIT\n")
        return folder
    }

    func listing(_ folder: TemporaryDirectory) -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
    }

    @Test func archiveChecksumsAndSignFormARelease() async throws {
        let folder = try project()
        let archive = try ArchiveStep(options: StepOptions(["files": .list([.string("build/*"), .string("LICENSE")]),
                                                            "output": .string("dist/tool.tar.gz"), "prefix": .string("tool-1.0")], for: ArchiveStep.description))
        let archived = try await archive.run(in: context(folder, environment: ["SOURCE_DATE_EPOCH": "1700000000"]))
        #expect(archived["path"] == "dist/tool.tar.gz")
        #expect(archived["sha256"] == (try PublishShell.output("sha256sum dist/tool.tar.gz", in: folder.path).prefix(64)).description)
        let listing = try PublishShell.output("TZ=UTC tar -tzvf dist/tool.tar.gz | awk '{print $1, $4, $5, $6}'", in: folder.path)
        #expect(listing == """
            drwxr-xr-x 2023-11-14 22:13 tool-1.0/
            -rw-r--r-- 2023-11-14 22:13 tool-1.0/LICENSE
            -rwxr-xr-x 2023-11-14 22:13 tool-1.0/tool

            """)
        try folder.write("keys/release.sec", try SignifyKeyGenerator().generate(name: "release", passphrase: Array("pw".utf8)).secretKey.text)
        let sum = try ChecksumsStep(options: StepOptions(["files": .list([.string("dist/*")])], for: ChecksumsStep.description))
        #expect(try await sum.run(in: context(folder)) == ["path": "dist/SHA256SUMS"])
        #expect(try PublishShell.output("cd dist && sha256sum -c SHA256SUMS", in: folder.path) == "tool.tar.gz: OK\n")
        let sign = try SignStep(options: StepOptions(["files": .list([.string("dist/*")]), "key": .string("keys/release.sec"),
                                                      "passphrase": .string("pw")], for: SignStep.description))
        let signed = try await sign.run(in: context(folder))
        #expect(signed["signatures"] == "dist/SHA256SUMS.sig\ndist/tool.tar.gz.sig")
        #expect(try FileManager.default.contents(atPath: folder.path + "/dist/tool.tar.gz.sig").map { String(decoding: $0, as: UTF8.self) }?
            .hasPrefix("untrusted comment: verify with release.pub\n") == true)
        // A second checksums run over dist/* ignores the signatures and itself.
        _ = try await sum.run(in: context(folder))
        #expect(try PublishShell.output("cat dist/SHA256SUMS | wc -l", in: folder.path).trimmingCharacters(in: .whitespaces) == "1\n")
    }

    @Test func aPatternThatMatchesNothingFailsAndWritesNothing() async throws {
        let folder = try project()
        let before = listing(folder)
        let archive = try ArchiveStep(options: StepOptions(["files": .list([.string("dist/*.zip")]), "output": .string("out/a.zip")], for: ArchiveStep.description))
        await #expect(throws: PublishError.noMatch(pattern: "dist/*.zip")) { _ = try await archive.run(in: context(folder)) }
        #expect(PublishError.noMatch(pattern: "dist/*.zip").errorDescription
            == "no file matches 'dist/*.zip'. Check the pattern (relative to the working directory) and that an earlier step made the files.")
        let upload = try UploadStep(options: StepOptions(["files": .list([.string("dist/*.zip")])], for: UploadStep.description))
        await #expect(throws: PublishError.noMatch(pattern: "dist/*.zip")) { _ = try await upload.run(in: context(folder)) }
        #expect(listing(folder) == before)
    }

    @Test func inlineKeysAndWrongPassphrasesThroughTheStep() async throws {
        let folder = try project()
        let keys = try SignifyKeyGenerator().generate(name: "ci", passphrase: Array("right".utf8))
        try folder.write("ci.pub", keys.publicKey.text)
        let before = listing(folder)
        let wrong = try SignStep(options: StepOptions(["files": .string("LICENSE"), "key": .string(keys.secretKey.text),
                                                       "passphrase": .string("wrong")], for: SignStep.description))
        do {
            _ = try await wrong.run(in: context(folder))
            Issue.record("expected a failure")
        } catch {
            #expect(errorText(error) == "the passphrase for the key given in option 'key' is wrong. Check the secret that holds it.")
        }
        #expect(listing(folder) == before)
        let right = try SignStep(options: StepOptions(["files": .string("LICENSE"), "key": .string(keys.secretKey.text),
                                                       "passphrase": .string("right"), "public-key": .string("ci.pub"),
                                                       "minisign": .bool(true)], for: SignStep.description))
        #expect(try await right.run(in: context(folder)) == ["signatures": "LICENSE.sig\nLICENSE.minisig"])
        #expect(try PublishShell.output("signify-openbsd -V -p ci.pub -m LICENSE", in: folder.path) == "Signature Verified\n")
        let missing = try SignStep(options: StepOptions(["files": .string("LICENSE"), "key": .string("keys/none.sec")], for: SignStep.description))
        await #expect(throws: StepError.invalidOption(name: "key", problem: "'keys/none.sec' is neither a key file (there is no such file) nor a key's text. "
                                                      + "Give the path of a signify secret key, or the key file's text from a secret")) {
            _ = try await missing.run(in: context(folder))
        }
    }

    @Test func optionsAreCheckedBeforeAnythingRuns() throws {
        #expect(throws: StepError.invalidOption(name: "output", problem: "'dist/tool.rar' does not end in .tar.gz, .tgz or .zip. Rename it or set format.")) {
            _ = try ArchiveStep(options: StepOptions(["files": .string("a"), "output": .string("dist/tool.rar")], for: ArchiveStep.description))
        }
        #expect(throws: StepError.invalidOption(name: "bucket", problem: "applies to to: s3, not to: directory")) {
            _ = try UploadStep(options: StepOptions(["files": .string("a"), "bucket": .string("b")], for: UploadStep.description))
        }
        #expect(throws: StepError.invalidOption(name: "bucket", problem: "is required for to: s3")) {
            _ = try UploadStep(options: StepOptions(["to": .string("s3"), "files": .string("a")], for: UploadStep.description))
        }
        #expect(throws: StepError.invalidOption(name: "repository", problem: "'octo' is not owner/name")) {
            _ = try UploadStep(options: StepOptions(["to": .string("github-release"), "files": .string("a"), "repository": .string("octo"),
                                                     "tag": .string("v1"), "token": .string("t")], for: UploadStep.description))
        }
        #expect(throws: StepError.invalidOption(name: "part-size", problem: "must be at least 5MiB (S3's minimum)")) {
            _ = try UploadStep(options: StepOptions(["to": .string("s3"), "files": .string("a"), "bucket": .string("b"),
                                                     "access-key-id": .string("k"), "secret-access-key": .string("s"),
                                                     "part-size": .string("1MiB")], for: UploadStep.description))
        }
        #expect(throws: StepError.invalidOption(name: "minisign", problem: "applies to backend ed25519, not gpg")) {
            _ = try SignStep(options: StepOptions(["backend": .string("gpg"), "files": .string("a"), "key": .string("k"), "minisign": .bool(true)], for: SignStep.description))
        }
        #expect(try PublishStepSupport.byteSize("64MiB", option: "x") == 64 << 20)
        #expect(try PublishStepSupport.byteSize("5 MB", option: "x") == 5_000_000)
        #expect(try PublishStepSupport.byteSize("1024", option: "x") == 1024)
    }

    @Test func directoryUploadThroughTheStepIsIdempotent() async throws {
        let folder = try project()
        try folder.write("dist/a.txt", "a")
        let events = Events()
        let step = try UploadStep(options: StepOptions(["files": .list([.string("dist/*")])], for: UploadStep.description))
        let outputs = try await step.run(in: context(folder, events: events))
        #expect(outputs["urls"] == URL(fileURLWithPath: folder.path + "/.slipway/published/a.txt").absoluteString)
        _ = try await step.run(in: context(folder, events: events))
        #expect(events.lines.contains("info: a.txt: uploaded → \(outputs["urls"] ?? "")"))
        #expect(events.lines.contains("info: a.txt: already there, skipped → \(outputs["urls"] ?? "")"))
        let plan = try step.plan(in: context(folder))
        #expect(plan == [Effect(.write, "upload dist/* to \(folder.path)/.slipway/published (skipping identical files)")])
    }

    @Test func httpUploadRetriesAreLoggedAndGiveUpClearly() async throws {
        let server = try UploadTestServer()
        let folder = try project()
        try server.script(["500", "500", "500"])
        let events = Events()
        let step = try UploadStep(options: StepOptions(["to": .string("http"), "files": .string("LICENSE"),
                                                        "url": .string(server.url("/up/{name}"))], for: UploadStep.description))
        do {
            _ = try await step.run(in: context(folder, events: events))
            Issue.record("expected a failure")
        } catch {
            #expect(errorText(error) == "upload of '\(folder.path)/LICENSE' to '\(server.url("/up/LICENSE"))' failed after 3 attempts: "
                + "HTTP 500 (internal error). Try again later, or check the server.")
        }
        #expect(events.lines.filter { $0.hasPrefix("warning: attempt ") }.count == 2)
        #expect(events.lines.first { $0.hasPrefix("warning: ") }?.hasPrefix("warning: attempt 1 of 3 failed: HTTP 500 (internal error); retrying in ") == true)
    }

    @Test func codesignIsMacOSOnlyAndBuildsItsCommand() throws {
        #expect(SignCodesignStep.description.platforms == [.macOS])
        #expect(StepRegistry.builtInTypes.contains { $0 == SignCodesignStep.self } == (Platform.current == .macOS))
        let step = try SignCodesignStep(options: StepOptions(["files": .string("build/App.app"), "identity": .string("Developer ID Application: X"),
                                                              "entitlements": .string("App.entitlements")], for: SignCodesignStep.description))
        let folder = try project()
        #expect(try step.plan(in: context(folder)) == [Effect(.process,
            "/usr/bin/codesign --sign 'Developer ID Application: X' --force --entitlements App.entitlements --options runtime --timestamp -- build/App.app")])
    }
}

/// Runs shell commands in the publish step tests.
private enum PublishShell {
    static func output(_ command: String, in directory: String) throws -> String {
        let result = try CommandResult.run("/bin/sh", ["-c", command], in: directory)
        guard result.status == 0 else { throw CocoaError(.executableLoad, userInfo: ["command": command, "stderr": result.standardError]) }
        return result.standardOutput
    }
}
