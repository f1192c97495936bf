import Foundation
import Testing
import TestThreads

/// A static check over the package's own sources: the project's files go through one door
/// (`ProjectFiles`, or the injected `FileSystem`, which the CLI makes a `ProjectFileSystem`).
/// Product code that reads or writes a path some other way — Foundation's whole-file readers
/// and writers, `FileHandle` opened by path, POSIX `open`/`fopen`, a `LocalFileSystem()` made on
/// the spot instead of the caller's — would read a committed link to `~/.aws/credentials` or
/// `/dev/zero` as if it were the project's file.
///
/// Such a call may stay only in an allowed home below (a file, with the reason), or on a line
/// marked `// door: <why>` (on the line or the line above). A new one anywhere else fails here.
@Suite(.dedicatedThreads) struct ProjectFileDoorSourcesTests {
    /// The ways round the door, as regular expressions over a line's code (comments dropped).
    static let bypasses: [(name: String, pattern: String)] = [
        ("Data(contentsOf:)", #"Data\(contentsOf:"#),
        ("String(contentsOfFile:)", #"String\(contentsOfFile:"#),
        ("String(contentsOf:)", #"String\(contentsOf:"#),
        ("FileManager.contents(atPath:)", #"FileManager\.default\.contents\(atPath:"#),
        ("FileManager.createFile", #"FileManager\.default\.createFile\("#),
        ("FileManager.copyItem", #"FileManager\.default\.copyItem\("#),
        ("FileManager.moveItem", #"FileManager\.default\.moveItem\("#),
        ("FileHandle(forReadingAtPath:)", #"FileHandle\(forReadingAtPath:"#),
        ("FileHandle(forReadingFrom:)", #"FileHandle\(forReadingFrom:"#),
        ("FileHandle(forWritingAtPath:)", #"FileHandle\(forWritingAtPath:"#),
        (".write(toFile:)", #"\.write\(toFile:"#),
        // Data's and String's `write(to: URL)`; `output.write(to: env, …)` prints, it writes no file.
        (".write(to:)", #"\.write\(to:(?! *env\b)"#),
        ("fopen(", #"\bfopen\("#),
        ("POSIX open(", #"(^|[^.\w])open\([^)]*\bO_(RDONLY|WRONLY|RDWR)"#),
        ("LocalFileSystem()", #"LocalFileSystem\(\)"#),
    ]

    /// Folders whose code never runs in the product.
    static let exemptFolders = [
        "Sources/TestSupport/", // test support: fixtures the tests make in their temporary folders
        "Sources/TestThreads/", // test support
        "Sources/slipway-bench/", // the benchmark: makes and reads its own corpus in temporary folders
    ]

    /// The allowed homes: files that may read or write paths another way, and why.
    static let allowedHomes: [String: String] = [
        // The door itself and what it stands on.
        "Sources/Basics/ProjectFiles.swift": "the door; its default file system is the disk it guards",
        "Sources/Basics/ProjectFileSystem.swift": "the door as a FileSystem; its base is the disk",
        "Sources/Basics/LocalFileSystem.swift": "the disk: the bounded, device-refusing reads the door uses",
        "Sources/Basics/FileSystem+Sync.swift": "the disk: fsync of folders, O_NOFOLLOW appends",
        // Slipway's own state, guarded by StateFiles (no link followed, owner checked).
        "Sources/Basics/StateFiles.swift": "StateFiles: Slipway's state, opened O_NOFOLLOW, owner checked",
        "Sources/Basics/StateKey.swift": "StateFiles: creates the user's state folder (0700) on the disk itself",
        // Paths Slipway made or the user named.
        "Sources/Basics/HTTP/HTTPTransferSupport.swift":
            "upload bodies and download destinations at paths the callers give (built artifacts, temporary folders, caches)",
        "Sources/Git/GitPackReader.swift": "git's own object store under .git, as libgit2 reads it; not the work tree",
        "Sources/Git/GitRepository.swift": "git's own .git/shallow file, as libgit2 reads it; not the work tree",
        "Sources/Git/GitCleanProof.swift": "lstat of index entries (follows nothing, reads nothing)",
        // Files the user names on the command line or in the environment, not the checkout's.
        "Sources/AppleAPI/AppStoreConnectKey.swift": "the App Store Connect key (.p8) named by --key-path or the environment",
        "Sources/Signing/Push/APNsAuthKey.swift": "the .p8/.p12 named on the command line; regular files only, capped",
        "Sources/Xcode/Log/XcodeLogFormatter.swift": "'xcode log FILE': a log named on the command line, streamed line by line",
        "Sources/SlipwayCLI/Commands/Signing/PushSendCommand.swift":
            "the payload named on the command line (@FILE): checked by the door first, then read regular-only and capped",
        // Built products, streamed: paths come from a step's outputs or the glob, which refuses links out.
        "Sources/AppleAPI/Build/BuildUploader+Parts.swift":
            "the built .ipa/.pkg, streamed in parts after the step checked it with the door (StepContext.checkedInput)",
        "Sources/Archives/Zip/ZipDirectory.swift":
            "a zip's directory, bounded reads (fuzzed: zip): the built .ipa a step checked with the door, a tool's archive Slipway downloaded",
        "Sources/AppleAPI/Notary/NotaryFile.swift": "the built file notarized, streamed after the step checked it with the door",
        "Sources/Publish/Support/FileStreams.swift":
            "release assets streamed: matched by ProjectGlob (links out refused) or an archive output the door checked",
        // PBXProj depends on nothing: its own reader refuses non-regular files and caps at 64 MiB.
        "Sources/PBXProj/ProjectFile.swift":
            "PBXProj's own reader (no dependencies): regular files only, 64 MiB; the CLI's commands read through the door",
        // Signing storages and install folders have their own door (no link followed, O_NOFOLLOW).
        "Sources/Signing/DirectorySigningStorage.swift": "a signing storage: its own rules (StorageLinkTests)",
        "Sources/Signing/GitSigningStorage.swift": "a git signing storage's clone in a temporary folder",
        "Sources/Signing/Install/DirectorySigningInstaller.swift": "the install folder a signing step names (outside the checkout)",
        "Sources/Signing/Install/KeychainSigningInstaller.swift": "a temporary folder of its own for the keychain import",
        "Sources/Signing/SigningStorageLocation.swift": "a signing storage: its own rules (StorageLinkTests)",
        // Made by Slipway itself.
        "Sources/Steps/BuiltIn/RunStep.swift": "the run step's own temporary outputs file, made by Slipway",
        "Sources/Xcode/Results/ResultBundleReader.swift": "a default argument only: its caller passes the step's file system",
    ]

    static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }

    static func swiftFiles(under folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: packageRoot + "/" + folder) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map { folder + "/" + $0 }
    }

    /// `file:line: what` for every way round the door in `text` on a line not marked `// door:`.
    static func bypasses(in text: String, file: String) throws -> [String] {
        let expressions = try bypasses.map { ($0.name, try NSRegularExpression(pattern: $0.pattern)) }
        let lines = text.components(separatedBy: "\n")
        var found: [String] = []
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("//") || trimmed.hasPrefix("*") || trimmed.hasPrefix("/*") { continue }
            let code = line.components(separatedBy: "//").first ?? ""
            let range = NSRange(code.startIndex..., in: code)
            guard let hit = expressions.first(where: { $0.1.firstMatch(in: code, range: range) != nil }) else { continue }
            let marked = line.contains("// door:") || (index > 0 && lines[index - 1].contains("// door:"))
            if !marked { found.append("\(file):\(index + 1): \(hit.0)") }
        }
        return found
    }

    @Test func productCodeGoesThroughTheDoor() throws {
        var found: [String] = []
        for file in Self.swiftFiles(under: "Sources")
        where !Self.exemptFolders.contains(where: file.hasPrefix) && Self.allowedHomes[file] == nil {
            let text = try String(contentsOfFile: Self.packageRoot + "/" + file, encoding: .utf8)
            found += try Self.bypasses(in: text, file: file)
        }
        #expect(found == [], """
            These calls read or write a path round the project's door. Read and write through the \
            injected FileSystem (fs.read(path, as: .lockfile), writeAtomically) or ProjectFiles; for a \
            path Slipway itself made or the user named outside the project, mark the line \
            '// door: <why>', or list the file in allowedHomes with the reason.
            """)
    }

    /// Every allowed home still exists and still needs to be one (a stale entry would let a
    /// new bypass in unseen).
    @Test func everyAllowedHomeIsNeeded() throws {
        var stale: [String] = []
        for (file, _) in Self.allowedHomes.sorted(by: { $0.key < $1.key }) {
            guard let text = try? String(contentsOfFile: Self.packageRoot + "/" + file, encoding: .utf8) else {
                stale.append("\(file): no such file")
                continue
            }
            if try Self.bypasses(in: text, file: file).isEmpty { stale.append("\(file): no call round the door left") }
        }
        #expect(stale == [], "Remove these entries from allowedHomes.")
    }

    @Test func theCheckFindsEachWayRoundTheDoor() throws {
        let source = """
            let a = try Data(contentsOf: URL(fileURLWithPath: path))
            let b = try String(contentsOfFile: path, encoding: .utf8)
            let c = FileManager.default.contents(atPath: path)
            let d = FileHandle(forReadingAtPath: path)
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            try data.write(to: URL(fileURLWithPath: path))
            let f = fopen(path, "r")
            let g = open(path, O_RDONLY | O_CLOEXEC)
            init(fileSystem: any FileSystem = LocalFileSystem()) {}
            try output.write(to: env, json: json, format: format)
            // let z = String(contentsOfFile: path) in a comment
            let h = open(path, O_RDONLY) // door: the tools cache, which Slipway made
            // door: a temporary folder Slipway made
            try data.write(to: URL(fileURLWithPath: temporary))
            let i = try fileSystem.read(path, as: .lockfile)
            """
        #expect(try Self.bypasses(in: source, file: "F.swift") == [
            "F.swift:1: Data(contentsOf:)", "F.swift:2: String(contentsOfFile:)", "F.swift:3: FileManager.contents(atPath:)",
            "F.swift:4: FileHandle(forReadingAtPath:)", "F.swift:5: FileManager.createFile", "F.swift:6: .write(toFile:)",
            "F.swift:7: .write(to:)", "F.swift:8: fopen(", "F.swift:9: POSIX open(", "F.swift:10: LocalFileSystem()",
        ])
    }
}
