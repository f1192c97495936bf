import Basics
import Foundation
import Lanes
import Testing
#if canImport(FoundationXML)
import FoundationXML
import TestThreads
#endif

/// Issue 11: a step that prints a secret base64-, URL- or JSON-encoded leaks it nowhere.
@Suite(.dedicatedThreads) struct EncodedSecretsTests {
    static let secret = "tok??>~~~en/V4lue \"q\" 42-\(UInt32.random(in: 1000...9999))"

    /// The encoded forms the step below prints, computed independently of the redactor.
    static var forms: [String: String] {
        func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
        let offset = base64("x" + secret + "~~")
        let json = String(decoding: (try? JSONEncoder().encode([secret])) ?? Data(), as: UTF8.self).dropFirst(2).dropLast(2)
        return [
            "base64": base64(secret), "base64 of the line": base64(secret + "\n"),
            "inside longer base64": String(offset.dropFirst(4).prefix(20)),
            "URL-safe base64": base64(secret).replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: ""),
            "percent-encoded": secret.utf8.map { String(format: "%%%02x", $0) }.joined(),
            "form-encoded": secret.replacingOccurrences(of: " ", with: "+").replacingOccurrences(of: "/", with: "%2F"),
            "JSON": String(json), "raw": secret,
        ]
    }

    @Test func encodedFormsOfASecretNeverReachAnyOutput() async throws {
        let fixture = try LaneFixture(["l": #"""
            secrets: [DEPLOY_TOKEN]
            steps:
              - run: |
                  printf '%s' "$DEPLOY_TOKEN" | base64
                  echo "$DEPLOY_TOKEN" | base64
                  printf 'x%s~~' "$DEPLOY_TOKEN" | base64
                  printf '%s' "$DEPLOY_TOKEN" | base64 | tr '+/' '-_' | tr -d '='
                  printf '%s' "$DEPLOY_TOKEN" | od -An -tx1 | tr -d ' \n' | sed 's/../%&/g'; echo
                  printf '%s' "$DEPLOY_TOKEN" | sed 's| |+|g; s|/|%2F|g'; echo
                  printf '{"token":"%s"}\n' "$(printf '%s' "$DEPLOY_TOKEN" | sed 's|[\\"/]|\\&|g')"
                id: leak
            """#], environment: ["DEPLOY_TOKEN": Self.secret])
        let events = fixture.path + "/events.ndjson", junit = fixture.path + "/junit.xml"
        let outcome = try await fixture.run("l", extraReporters: [
            try NDJSONReporter(path: events, fileSystem: LocalFileSystem()), JUnitReporter(path: junit, fileSystem: LocalFileSystem()),
        ])
        #expect(outcome.summary.status == .succeeded)
        let printed = outcome.events.compactMap(\.line)
        #expect(printed.count == 7)
        #expect(printed.filter { $0 == "***" }.count == 5, "\(printed)")
        #expect(printed.last == #"{"token":"***"}"#)
        let decodedEvents = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
            .map { try JSONDecoder().decode(RunEvent.self, from: Data($0.utf8)) }
        let channels = [
            "console": outcome.console,
            "events file": decodedEvents.compactMap(\.line).joined(separator: "\n"),
            "JUnit": try XMLDocument(xmlString: String(contentsOfFile: junit, encoding: .utf8)).rootElement()?.stringValue ?? "",
        ]
        for (channel, text) in channels {
            #expect(text.contains("***"), "\(channel) has no masked line")
            for (name, form) in Self.forms {
                #expect(!text.contains(form), "\(channel) shows the secret's \(name) form '\(form)'")
            }
        }
    }
}
