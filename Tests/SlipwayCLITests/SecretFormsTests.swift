import Foundation
import Testing
import TestSupport
import TestThreads

/// Issue 23 item 6, end to end through the built `slipway`: a secret printed shell-quoted
/// (`printf %q`, `set -x`, Slipway's own plans and failure messages), base64-wrapped inside a
/// longer stream (`base64`, `base64 -w 64`), or inside a line longer than 64 KiB reaches none
/// of stdout, stderr, `--events`, `--junit`, the run journal or a `--dry-run` plan.
@Suite(.dedicatedThreads) struct SecretFormsTests {
    /// A quote and spaces (single-quote and backslash styles), 21 bytes.
    static let token = "it's a t0ken-\(UInt32.random(in: 10_000_000...99_999_999))"
    /// Two lines: `set -x` and `printf %q` print it `$'…\n…'`.
    static let multiline = "first'line-\(UInt32.random(in: 1000...9999))\nsecond line \(UInt32.random(in: 1000...9999))"

    static let lanes = [
        "leak": #"""
            secrets: [TOKEN, MULTI]
            steps:
              - run:
                  shell: /bin/bash
                  command: |
                    printf '%q\n' "$TOKEN"
                    printf '%q\n' "$MULTI"
                    ( set -x; : "$TOKEN" ) 2>&1
                    ( set -x; : "$MULTI" ) 2>&1
                    ( set -x; : "$TOKEN" )
                    { head -c 40 /dev/zero | tr '\0' x; printf %s "$TOKEN"; head -c 300 /dev/zero | tr '\0' y; } > long.txt
                    base64 long.txt
                    base64 -w 64 long.txt
                    base64 long.txt | sed 's/$/\r/'
                    head -c 65530 /dev/zero | tr '\0' a; printf %s "$TOKEN"; head -c 140000 /dev/zero | tr '\0' b; echo
                    echo done
            """#,
        "fails": #"""
            secrets: [TOKEN]
            steps:
              - swift.build: { product: "${{ secrets.TOKEN }}" }
            """#,
    ]

    /// What bash prints for the secrets, computed here by bash itself, not by Slipway.
    static func shellForms() throws -> [String] {
        let script = #"printf '%q\n' "$TOKEN"; printf '%q\n' "$MULTI"; ( set -x; : "$TOKEN"; : "$MULTI" ) 2>&1"#
        let result = try CommandResult.run("/bin/bash", ["-c", script], environment: ["TOKEN": token, "MULTI": multiline])
        let lines = result.standardOutput.split(separator: "\n").map { String($0.dropFirst($0.hasPrefix("+ : ") ? 4 : 0)) }
        // set -x prints the two-line value single-quoted over two lines; printf %q as $'…\n…'.
        #expect(lines.count == 5, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("$'first\\'line-") }, "\(lines)")
        #expect(lines.contains(#"it\'s\ a\ t0ken-"# + token.dropFirst(13)), "\(lines)")
        #expect(lines.contains("'it'\\''s a t0ken-" + token.dropFirst(13) + "'"), "\(lines)")
        return lines
    }

    /// For each of the three positions the token can have in a 3-byte group, the base64
    /// characters made of its bits only (computed with Foundation's encoder).
    static func base64Cores(of value: String) -> [String] {
        (0..<3).map { offset in
            let encoded = Array(Data(Array(repeating: 0, count: offset) + Array(value.utf8)).base64EncodedString().utf8)
            let first = (8 * offset + 5) / 6, end = 8 * (offset + value.utf8.count) / 6
            return String(decoding: encoded[first..<end], as: UTF8.self)
        }
    }

    /// Fails when `text` shows a secret, a line of one, a shell-quoted form or a base64 core,
    /// as printed or with its line breaks taken out (a value cut in two by a line break).
    static func expectNoLeak(_ text: String, in channel: String, forms: [String]) {
        let joined = text.replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\n", with: "")
        let secrets = [token, multiline] + multiline.split(separator: "\n").map(String.init)
        for (name, needles) in [("secret", secrets), ("shell-quoted form", forms), ("base64", base64Cores(of: token))] {
            for needle in needles {
                #expect(!text.contains(needle), "\(channel) shows the \(name) '\(needle)'")
                #expect(!joined.contains(needle), "\(channel) shows the \(name) '\(needle)' across a line break")
            }
        }
    }

    /// Every file under `folder`, read as text.
    static func filesText(under folder: String) -> String {
        let enumerator = FileManager.default.enumerator(atPath: folder)
        var text = ""
        while let name = enumerator?.nextObject() as? String {
            if let contents = try? String(contentsOfFile: folder + "/" + name, encoding: .utf8) { text += contents + "\n" }
        }
        return text
    }

    func project() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(prefix: "slipway-secret-forms")
        for (name, text) in Self.lanes { try folder.write("lanes/\(name).yml", text) }
        // A `swift` that fails at once: the failure message quotes the command line.
        try folder.write("bin/swift", "#!/bin/sh\nexit 3\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path + "/bin/swift")
        return folder
    }

    func slipway(_ arguments: [String], in folder: TemporaryDirectory) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, arguments, in: folder.path, environment: [
            "TOKEN": Self.token, "MULTI": Self.multiline, "NO_COLOR": "1", "GITHUB_ACTIONS": nil,
            "PATH": folder.path + "/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
        ])
    }

    @Test func printedFormsAreMaskedInEveryChannel() throws {
        let forms = try Self.shellForms()
        let folder = try project()
        let run = try slipway(["run", "leak", "--events", "events.ndjson", "--junit", "junit.xml"], in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        let out = run.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // printf %q (backslash and $'…' styles), set -x (single-quote style, one value over two
        // lines), then set -x on stderr: the quoted value masked, the quoting around it kept.
        #expect(Array(out.dropFirst(2).prefix(6)) == ["    ***", "    $'***'", "    + : '***'", "    + : '***", "    ***'", "    + : '***'"],
                "\(out.prefix(8))")
        // The encoded token straddles a line break in each of the three wrapped encodings:
        // the end of one line and the start of the next are masked.
        let wrapped = out.indices.filter { out[$0].hasSuffix("***") && out[$0].contains("eHh4eHh4") }
        #expect(wrapped.count == 3, "\(out.prefix(40))")
        #expect(wrapped.allSatisfy { out[$0 + 1].hasPrefix("    ***") })
        // The 200 KiB line is cut in pieces, none of which splits the token. Where the cut falls
        // depends on how the pipe's reads arrive (before the mask, after it, or around it), so the
        // pieces are put back together: a piece holding part of the token would hold other
        // characters than a, b and the mask, be left out, and break "a***b".
        let pieces = out.map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : $0 }
            .filter { !$0.isEmpty && $0.allSatisfy { "ab*".contains($0) } }
        #expect(pieces.joined().contains("a***b"), "\(pieces.map { "\($0.prefix(8))…\($0.suffix(8)) (\($0.count))" })")
        #expect(run.standardOutput.contains("done"))
        let events = try String(contentsOfFile: folder.path + "/events.ndjson", encoding: .utf8)
        let lines = try events.split(separator: "\n").compactMap {
            (try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["line"] as? String
        }
        #expect(lines.count > 20)
        for (channel, text) in [
            ("stdout", run.standardOutput), ("stderr", run.standardError), ("events file", events),
            ("event lines", lines.joined(separator: "\n")),
            ("JUnit", try String(contentsOfFile: folder.path + "/junit.xml", encoding: .utf8)),
            ("journal", Self.filesText(under: folder.path + "/.slipway")),
        ] {
            Self.expectNoLeak(text, in: channel, forms: forms)
        }
    }

    @Test func quotedSecretsInPlansAndFailureMessagesAreMasked() throws {
        let forms = try Self.shellForms() + ["'it'\\''s a t0ken-" + Self.token.dropFirst(13) + "'"]
        let folder = try project()
        let plan = try slipway(["run", "fails", "--dry-run"], in: folder)
        #expect(plan.status == 0, "\(plan.standardError)")
        #expect(plan.standardOutput.contains("--product '***'\n"), "\(plan.standardOutput)")
        let failed = try slipway(["run", "fails", "--events", "events.ndjson", "--junit", "junit.xml"], in: folder)
        #expect(failed.status == 1)
        let message = "'swift build -c debug --package-path \(folder.path) --product '***'' failed with exit code 3"
        #expect((failed.standardOutput + failed.standardError).contains(message), "\(failed.standardOutput)\(failed.standardError)")
        for (channel, text) in [
            ("plan stdout", plan.standardOutput), ("plan stderr", plan.standardError),
            ("stdout", failed.standardOutput), ("stderr", failed.standardError),
            ("events file", try String(contentsOfFile: folder.path + "/events.ndjson", encoding: .utf8)),
            ("JUnit", try String(contentsOfFile: folder.path + "/junit.xml", encoding: .utf8)),
            ("journal", Self.filesText(under: folder.path + "/.slipway")),
        ] {
            Self.expectNoLeak(text, in: channel, forms: forms)
        }
    }
}
