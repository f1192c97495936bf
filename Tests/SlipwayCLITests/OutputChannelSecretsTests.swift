import Crypto
import Foundation
import Testing
import TestSupport
import TestThreads

/// Issue 37, end to end through the built `slipway`: a secret reaches no byte Slipway writes —
/// standard output and error, `--events`, `--junit`, the run journal under `.slipway/runs`, and
/// every other file the run creates or changes in the project or the output folder — in any
/// covered form, including the HTML-escaped, `\u`-escaped and UTF-16 forms; a failed step's
/// error in JUnit included. `notify` masks an error page that echoes the webhook's path, and an
/// App Store Connect command masks the token it minted when a server quotes it.
@Suite(.serialized, .dedicatedThreads) struct OutputChannelSecretsTests {
    /// A `/`, `&` and `-` so that the percent, HTML and JSON forms differ from the value.
    static let token = "s3cr3t/Value&x-\(UInt32.random(in: 10_000_000...99_999_999))"

    /// Every covered form of `secret`, computed here without Slipway's code: name and bytes.
    static func forms(of secret: String) -> [(name: String, bytes: [UInt8])] {
        var forms: [(String, [UInt8])] = [("raw", Array(secret.utf8))]
        let scalars = secret.unicodeScalars
        forms.append(("percent", Array((secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "").utf8)))
        let json = (try? JSONSerialization.data(withJSONObject: [secret])).map { String(decoding: $0, as: UTF8.self) } ?? ""
        forms.append(("JSON", Array(json.dropFirst(2).dropLast(2).utf8)))
        for format in ["\\u%04x", "\\u%04X"] {
            forms.append(("JSON \(format)", Array(scalars.map { String(format: format, $0.value) }.joined().utf8)))
        }
        let named = secret.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "/", with: "&#x2F;")
        forms.append(("HTML named", Array(named.utf8)))
        forms.append(("HTML decimal", Array(scalars.map { "&#\($0.value);" }.joined().utf8)))
        forms.append(("HTML hex", Array(scalars.map { "&#x\(String($0.value, radix: 16));" }.joined().utf8)))
        for encoding in [String.Encoding.utf16LittleEndian, .utf16BigEndian] {
            forms.append(("UTF-16 \(encoding)", Array(secret.data(using: encoding) ?? Data())))
        }
        for offset in 0..<3 {
            let encoded = Array(Data(Array(repeating: 0, count: offset) + Array(secret.utf8)).base64EncodedString().utf8)
            let first = (8 * offset + 5) / 6, end = 8 * (offset + secret.utf8.count) / 6
            forms.append(("base64 core \(offset)", Array(encoded[first..<end])))
        }
        return forms
    }

    /// Fails when `bytes` hold any form of `secret`.
    static func expectNoForm(of secret: String, in bytes: [UInt8], channel: String) {
        for form in forms(of: secret) where !form.bytes.isEmpty {
            #expect(!contains(bytes, form.bytes), "\(channel) shows the secret's \(form.name) form")
        }
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start] == needle[0] && Array(haystack[start..<(start + needle.count)]) == needle
        }
    }

    /// Every file under `folder`, relative path and bytes.
    static func files(under folder: String) -> [(String, [UInt8])] {
        let enumerator = FileManager.default.enumerator(atPath: folder)
        var files: [(String, [UInt8])] = []
        while let name = enumerator?.nextObject() as? String {
            if let data = FileManager.default.contents(atPath: folder + "/" + name) { files.append((name, Array(data))) }
        }
        return files
    }

    func slipway(_ arguments: [String], in folder: String, environment: [String: String?] = [:]) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, arguments, in: folder, environment: environment.merging([
            "TOKEN": Self.token, "NO_COLOR": "1", "GITHUB_ACTIONS": nil,
        ]) { first, _ in first })
    }

    /// A step prints the token in every form; another fails with the token in its error.
    static let lane = #"""
        secrets: [TOKEN]
        steps:
          - id: forms
            run: |
              python3 - <<'PY'
              import html, json, os, sys
              t = os.environ["TOKEN"]
              out = sys.stdout.buffer
              for line in [t, html.escape(t), t.replace("&", "&amp;").replace("/", "&#x2F;"),
                           "".join("&#%d;" % ord(c) for c in t), "".join("&#x%x;" % ord(c) for c in t),
                           "".join("&#X%X;" % ord(c) for c in t), json.dumps(t),
                           "".join("\\u%04x" % ord(c) for c in t), "".join("\\u%04X" % ord(c) for c in t)]:
                  out.write(("form: " + line + "\n").encode())
              out.write(b"utf16: " + t.encode("utf-16-le") + b"\n")
              out.write(b"utf16be: " + t.encode("utf-16-be") + b"\n")
              out.write(b"<p>Cannot POST &#x2F;hook&#x2F;" + html.escape(t).encode() + b"</p>\n")
              out.flush()
              PY
          - id: fails
            run:
              command: "true"
              shell: "/nonexistent/${{ secrets.TOKEN }}"
        """#

    @Test func everyByteARunWritesIsMasked() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-channels")
        let output = try TemporaryDirectory(prefix: "slipway-channels-out")
        try folder.write("lanes/leak.yml", Self.lane)
        let before = try Snapshot.of(folder.path)
        let run = try slipway(["run", "leak", "--events", output.path + "/events.ndjson", "--junit", output.path + "/junit.xml"],
                              in: folder.path)
        #expect(run.status == 1, "\(run.standardOutput)\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        // Nine printed forms, each masked whole; the UTF-16 lines too.
        #expect(lines.filter { $0 == "    form: ***" || $0 == "    form: \"***\"" }.count == 9, "\(lines)")
        #expect(lines.contains("    utf16: ***") && lines.contains("    utf16be: ***"), "\(lines)")
        #expect(lines.contains("    <p>Cannot POST &#x2F;hook&#x2F;***</p>"), "\(lines)")
        // The failure, in JUnit too, names the shell with the token masked.
        let junit = try String(contentsOfFile: output.path + "/junit.xml", encoding: .utf8)
        #expect(junit.contains("/nonexistent/***"), "\(junit)")
        // What changed in the project: the journal (and whatever else the run wrote).
        let changed = Self.files(under: folder.path).filter { path, _ in path != "lanes/leak.yml" }
        #expect(changed.contains { $0.0.hasPrefix(".slipway/runs/") }, "\(changed.map(\.0))")
        #expect(try Snapshot.of(folder.path).filter { before[$0.key] == nil || before[$0.key] != $0.value }.keys
            .allSatisfy { $0.hasPrefix(".slipway") }, "the run changed files outside .slipway")
        var channels: [(String, [UInt8])] = [("stdout", Array(run.standardOutput.utf8)), ("stderr", Array(run.standardError.utf8))]
        channels += changed.map { ("project file \($0.0)", $0.1) }
        channels += Self.files(under: output.path).map { ("output file \($0.0)", $0.1) }
        #expect(channels.count >= 5)
        for (channel, bytes) in channels { Self.expectNoForm(of: Self.token, in: bytes, channel: channel) }
    }

    @Test func notifyMasksAnErrorPageThatEchoesTheWebhookPath() throws {
        let slack = try SlackContractFake()
        let folder = try TemporaryDirectory(prefix: "slipway-channels-notify")
        let output = try TemporaryDirectory(prefix: "slipway-channels-notify-out")
        try folder.write("lanes/release.yml", """
            secrets: [SLACK_WEBHOOK_URL]
            steps:
              - notify: { service: slack, url: "${{ secrets.SLACK_WEBHOOK_URL }}", message: "Release done" }
            """)
        // Express's answer for an unknown route, as a proxy in front of a webhook gives it.
        try slack.inject([ChatFault(status: 404, error: "<pre>Cannot POST {path}</pre> <p>{html_path}</p>")])
        let run = try slipway(["run", "release", "--junit", output.path + "/junit.xml", "--events", output.path + "/events.ndjson"],
                              in: folder.path, environment: ["SLACK_WEBHOOK_URL": slack.webhookURL])
        #expect(run.status == 1, "\(run.standardOutput)\(run.standardError)")
        let all = run.standardOutput + run.standardError
        #expect(all.contains("the Slack incoming webhook refused the message: HTTP 404 <pre>Cannot POST ***</pre> <p>***</p>."), "\(all)")
        let secretSegment = String(slack.webhookPath.split(separator: "/").last ?? "")
        var channels: [(String, [UInt8])] = [("stdout", Array(run.standardOutput.utf8)), ("stderr", Array(run.standardError.utf8))]
        channels += Self.files(under: folder.path + "/.slipway").map { ("journal \($0.0)", $0.1) }
        channels += Self.files(under: output.path).map { ("output file \($0.0)", $0.1) }
        for (channel, bytes) in channels {
            for secret in [slack.webhookURL, "/services/" + slack.webhookPath, secretSegment] {
                Self.expectNoForm(of: secret, in: bytes, channel: channel)
            }
        }
    }

    @Test func appStoreCommandsMaskTheTokenAServerQuotes() throws {
        let key = P256.Signing.PrivateKey()
        let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"
        let folder = try TemporaryDirectory(prefix: "slipway-channels-asc")
        let fake = try AppStoreConnectContractFake(keys: [.init(issuerID: issuer, keyID: "ABC123DEFG", publicKeyPEM: key.publicKey.pemRepresentation)],
                                                   onViolations: recordContractViolations)
        try fake.inject(.status(403, path: "/v1/apps", echoToken: true))
        let result = try CommandResult.run(Binaries.slipway, [
            "appstore", "check", "--key-id", "ABC123DEFG", "--issuer-id", issuer, "--key-env", "ASC_KEY",
            "--bundle-id", "com.example.app", "--api-url", fake.url,
        ], in: folder.path, environment: ["ASC_KEY": key.pemRepresentation, "GITHUB_ACTIONS": nil])
        #expect(result.status == 1)
        #expect(result.standardError.contains("(HTTP 403: FORBIDDEN_ERROR: Injected fault — The contract fake was told to answer so. Rejected credentials: Bearer ***)"),
                "\(result.standardError)")
        // The token the fake received (each part of the JWT) shows nowhere.
        let sent = try #require(try fake.state().requests.first { $0.path == "/v1/apps" })
        #expect(sent.status == 403)
        #expect(!result.standardError.contains("eyJ") && !result.standardOutput.contains("eyJ"), "\(result.standardError)")
    }
}

