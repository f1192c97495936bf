import Basics
import Foundation
import Testing
import TestThreads

/// Issue 37: the forms servers and tools print a secret in besides those of issue 11 — HTML
/// character references (an error page), `\uXXXX` for every character (encoders that escape
/// all), and UTF-16 bytes — are masked; ordinary text that resembles them is not.
@Suite(.dedicatedThreads) struct RedactorEscapedFormsTests {
    static let secret = "s3cr3t/Value&\"x\"-42"
    let redactor = Redactor(secrets: [Self.secret])

    static func html(_ text: String, _ reference: (Unicode.Scalar) -> String) -> String {
        text.unicodeScalars.map(reference).joined()
    }

    @Test func htmlEscapedFormsAreMasked() {
        let secret = Self.secret
        let forms = [
            // What escape-html and Python's html.escape print, and OWASP's '/' as &#x2F;.
            secret.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;"),
            secret.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&#34;")
                .replacingOccurrences(of: "/", with: "&#x2F;"),
            secret.replacingOccurrences(of: "&", with: "&#38;").replacingOccurrences(of: "\"", with: "&#x22;")
                .replacingOccurrences(of: "/", with: "&#47;"),
            secret.replacingOccurrences(of: "&", with: "&AMP;").replacingOccurrences(of: "\"", with: "&QUOT;")
                .replacingOccurrences(of: "/", with: "&sol;"),
            // Every character as a reference, decimal and hexadecimal in either case.
            Self.html(secret) { "&#\($0.value);" },
            Self.html(secret) { "&#x\(String($0.value, radix: 16));" },
            Self.html(secret) { "&#X\(String($0.value, radix: 16, uppercase: true));" },
        ]
        for form in forms {
            #expect(redactor.redact("<p>Cannot POST /hook/\(form)</p>") == "<p>Cannot POST /hook/***</p>", "\(form)")
        }
        // A different value in the same shape stays.
        let other = "s3cr3t&#x2F;Value&amp;&quot;y&quot;-42"
        #expect(redactor.redact(other) == other)
    }

    @Test func everyCharacterAsUnicodeEscapeIsMasked() {
        let plain = Redactor(secrets: ["plainAlnum123"])
        for upper in [false, true] {
            let all = "plainAlnum123".unicodeScalars.map { String(format: upper ? "\\u%04X" : "\\u%04x", $0.value) }.joined()
            #expect(plain.redact("{\"t\":\"\(all)\"}") == "{\"t\":\"***\"}")
        }
        // Mixed: some characters raw, some escaped.
        #expect(plain.redact("\"pl\\u0061inAlnum\\u00312\\u0033\"") == "\"***\"")
        let mixed = Self.secret.unicodeScalars.map { String(format: "\\u%04x", $0.value) }.joined()
        #expect(redactor.redact(mixed) == "***")
    }

    @Test func utf16BytesAreMasked() {
        for encoding in [String.Encoding.utf16LittleEndian, .utf16BigEndian] {
            let bytes = Array(Self.secret.data(using: encoding) ?? Data())
            #expect(bytes.count == 2 * Self.secret.utf16.count)
            let text = "before " + String(decoding: bytes, as: UTF8.self) + " after"
            #expect(redactor.redact(text) == "before *** after")
            // What the terminal filter would have made of it: the value, with the zero bytes gone.
            #expect(TerminalSafeText.sanitized(redactor.redact(text)) == "before *** after")
        }
    }

    @Test func ordinaryTextWithReferencesIsLeftAlone() {
        let text = "Tom &amp; Jerry &#47; \\u0041BC \"quoted\" s3cr3t/Valu"
        #expect(redactor.redact(text) == text)
    }
}

/// Untrusted text embedded in human output shows its control characters as escapes.
@Suite(.dedicatedThreads) struct DisplayTextTests {
    @Test func controlCharactersAreShownEscaped() {
        let forged = "feat: x\r\u{1B}[K✓ upload succeeded"
        #expect(DisplayText.untrusted(forged) == "feat: x\\r\\u{1B}[K✓ upload succeeded")
        #expect(forged.displaySafe == DisplayText.untrusted(forged))
        #expect(DisplayText.untrusted("a\nb\tc\u{7F}\u{9B}31m\u{0}") == "a\\nb\\tc\\u{7F}\\u{9B}31m\\u{0}")
        #expect(DisplayText.untrusted("evil\u{202E}txt.exe\u{2028}\u{FEFF}") == "evil\\u{202E}txt.exe\\u{2028}\\u{FEFF}")
        // What is left is safe for the terminal filter, which now has nothing to remove.
        #expect(TerminalSafeText.sanitized(forged.displaySafe) == forged.displaySafe)
    }

    @Test func ordinaryTextIsUnchanged() {
        let text = "Build 42 · ✓ done — émoji 🚀 C:\\path\\to 'quoted' \"double\""
        #expect(DisplayText.untrusted(text) == text)
        #expect(DisplayText.untrustedLines("line one\nline two\n") == "line one\nline two\n")
    }

    @Test func processOutputKeepsColoursAndShowsCarriageReturns() {
        #expect(DisplayText.processOutput("\u{1B}[32mok\u{1B}[0m") == "\u{1B}[32mok\u{1B}[0m")
        #expect(DisplayText.processOutput("x\r\u{1B}[K✓ forged") == "x\\r\u{1B}[K✓ forged")
        #expect(TerminalSafeText.sanitized(DisplayText.processOutput("x\r\u{1B}[K✓ forged")) == "x\\r✓ forged")
    }

    @Test func linesKeepTheirBreaksAndEscapeTheRest() {
        #expect(DisplayText.untrustedLines("- a\r\n- b\r\u{1B}[K✓ forged\n") == "- a\n- b\\r\\u{1B}[K✓ forged\n")
        #expect(DisplayText.untrustedLines("  - \t\tpath = App;\u{7}") == "  - \t\tpath = App;\\u{7}")
    }
}
