import Foundation
import Git
import TestSupport

/// The identity tests commit and tag with through libgit2.
let testSignature = GitSignature(
    name: "Slipway Test", email: "test@example.com", date: Date(timeIntervalSince1970: 1_700_000_000),
    timeZoneOffsetMinutes: 60)

/// `path` with symbolic links resolved (macOS's /tmp is /private/tmp), to compare with libgit2.
func realPath(_ path: String) -> String {
    guard let resolved = realpath(path, nil) else { return path }
    defer { free(resolved) }
    return String(cString: resolved)
}

extension GitFixture {
    /// Opens the fixture with the Git module.
    func open() throws -> GitRepository {
        try GitRepository.open(at: path)
    }

    /// `git status --porcelain` lines, untracked files listed one by one.
    func porcelain() throws -> [String] {
        try git("status", "--porcelain", "--untracked-files=all").split(separator: "\n").map(String.init)
    }
}

/// Facts about this machine's git configuration that decide whether a test can run.
enum LibGit2Probe {
    /// True when the user's or system's git configuration says `safe.directory = *` (read with
    /// the real environment, unlike `GitFixture`, which hides that configuration).
    static var trustsAllDirectories: Bool {
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "config", "--get-all", "safe.directory"]
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { return false }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: "\n").contains("*")
    }
}
