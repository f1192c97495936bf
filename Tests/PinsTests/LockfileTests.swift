import Basics
import Foundation
import Git
@testable import Pins
import Testing
import TestSupport
import TestThreads

@Suite(.dedicatedThreads) struct LockfileTests {
    let commit = GitOID(hex: "0123456789abcdef0123456789abcdef01234567")!

    func sample() -> Lockfile {
        Lockfile(tools: [
            "zeta": LockedTool(source: .system, version: SemanticVersion("2.39.2")!),
            "alpha": LockedTool(source: .git, version: SemanticVersion("1.1.0")!,
                                git: LockedGit(url: "file:///repo", tag: "v1.1.0", commit: commit, product: "alpha"),
                                executables: ["macos-arm64": "bb", "linux-x86_64": "aa"]),
            "fmt": LockedTool(source: .archive, version: SemanticVersion("2.0.0")!,
                              archive: LockedArchive(executable: "bin/fmt", platforms: [
                                  "linux-x86_64": LockedDownload(url: "http://h/fmt-linux.tar.gz", sha256: "cc"),
                              ]), executables: ["linux-x86_64": "dd"]),
        ])
    }

    @Test func writesDeterministicJSONWithSortedKeys() throws {
        let text = String(decoding: try LockfileStore.encode(sample()), as: UTF8.self)
        #expect(text == """
            {
              "tools" : {
                "alpha" : {
                  "executables" : {
                    "linux-x86_64" : "aa",
                    "macos-arm64" : "bb"
                  },
                  "git" : {
                    "commit" : "0123456789abcdef0123456789abcdef01234567",
                    "product" : "alpha",
                    "tag" : "v1.1.0",
                    "url" : "file:///repo"
                  },
                  "source" : "git",
                  "version" : "1.1.0"
                },
                "fmt" : {
                  "archive" : {
                    "executable" : "bin/fmt",
                    "platforms" : {
                      "linux-x86_64" : {
                        "sha256" : "cc",
                        "url" : "http://h/fmt-linux.tar.gz"
                      }
                    }
                  },
                  "executables" : {
                    "linux-x86_64" : "dd"
                  },
                  "source" : "archive",
                  "version" : "2.0.0"
                },
                "zeta" : {
                  "source" : "system",
                  "version" : "2.39.2"
                }
              },
              "version" : 1
            }

            """)
        let store = LockfileStore(path: "/unused", fileSystem: LocalFileSystem())
        #expect(try store.decode(LockfileStore.encode(sample())) == sample())
        #expect(try LockfileStore.encode(sample()) == LockfileStore.encode(store.decode(LockfileStore.encode(sample()))))
    }

    func loadError(_ text: String) -> String? {
        do {
            _ = try LockfileStore(path: "/unused", displayName: "Toolfile.lock", fileSystem: LocalFileSystem()).decode(Array(text.utf8))
            return nil
        } catch {
            return errorText(error)
        }
    }

    @Test func unknownVersionsAndCorruptFilesAreRefused() {
        #expect(loadError(#"{"version": 2, "tools": {}}"#) == """
            'Toolfile.lock' has format version 2, but this slipway reads version 1. Update slipway, or run 'slipway tools lock' to write the lock again in version 1.
            """)
        let restore = "Restore it from version control, or delete it and run 'slipway tools lock' to write it again."
        #expect(loadError(#"{"version": 1, "tools": {"#) == "'Toolfile.lock' is not a valid Toolfile.lock: it is not valid JSON. \(restore)")
        #expect(loadError(#"{"tools": {}}"#) == "'Toolfile.lock' is not a valid Toolfile.lock: 'version' is missing. \(restore)")
        #expect(loadError(#"[1]"#) == "'Toolfile.lock' is not a valid Toolfile.lock: the top level is not an object. \(restore)")
        #expect(loadError(#"{"version": 1, "tools": {"x": {"source": "brew", "version": "1.0.0"}}}"#) == """
            'Toolfile.lock' is not a valid Toolfile.lock: 'tools.x.source': Cannot initialize ToolSourceKind from invalid String value brew. \(restore)
            """)
        #expect(loadError(#"{"version": 1, "tools": {"x": {"source": "git", "version": "1.0"}}}"#)?
            .hasPrefix("'Toolfile.lock' is not a valid Toolfile.lock: 'tools.x.version': '1.0' is not a semantic version") == true)
    }

    @Test func lockRefusesToOverwriteABadLockfile() async throws {
        let project = try PinsProject()
        try project.write("Toolfile", "tools:\n  sh:\n    system: sh\n    version: '*'\n")
        for bad in [#"{"version": 9, "tools": {}}"#, "{ not json"] {
            try project.write("Toolfile.lock", bad)
            let error = await thrownText { _ = try await ToolLocker(context: project.context()).lock() }
            #expect(error?.hasPrefix("'Toolfile.lock' ") == true)
            #expect(try project.read("Toolfile.lock") == bad, "a lockfile it cannot read is left alone")
        }
    }
}
