import Basics
import Foundation
import Testing
import TestThreads

/// The encoded forms of a secret the redactor masks (issue 11), and the text it leaves alone.
@Suite(.dedicatedThreads) struct RedactorFormsTests {
    /// Its base64 has `+` (so the URL-safe form differs) and it is 20 bytes (not a multiple of 3).
    static let secret = "tok??>~~~en-Value-42"
    let redactor = Redactor(secrets: [Self.secret])

    static func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }

    @Test func base64OfTheSecretAndOfTheSecretWithANewlineIsMasked() {
        #expect(Self.base64(Self.secret) == "dG9rPz8+fn5+ZW4tVmFsdWUtNDI=")
        #expect(redactor.redact("dG9rPz8+fn5+ZW4tVmFsdWUtNDI=") == "***")             // printf '%s' "$X" | base64
        #expect(redactor.redact("dG9rPz8+fn5+ZW4tVmFsdWUtNDI") == "***")              // without padding
        #expect(redactor.redact("b64: dG9rPz8+fn5+ZW4tVmFsdWUtNDIK.") == "b64: ***.")   // echo "$X" | base64
        #expect(redactor.redact("dG9rPz8-fn5-ZW4tVmFsdWUtNDI=") == "***")              // URL-safe
        #expect(redactor.redact("dG9rPz8-fn5-ZW4tVmFsdWUtNDIK") == "***")
        // Innocent text: other base64, and a short run of the secret's encoding.
        #expect(redactor.redact("aGVsbG8gd29ybGQ= dG9rPz8 ZW4t") == "aGVsbG8gd29ybGQ= dG9rPz8 ZW4t")
    }

    @Test(arguments: ["", "x", "ab", "abc", "abcd", "abcde"])
    func base64OfTheSecretInsideLongerTextIsMaskedAtEveryAlignment(prefix: String) {
        let suffix = "~~ and more"
        let encoded = Array(Self.base64(prefix + Self.secret + suffix))
        let start = prefix.utf8.count, end = start + Self.secret.utf8.count
        // The characters holding only the secret's bits are masked; the partial ones around stay.
        let expected = String(encoded[..<((8 * start + 5) / 6)]) + "***" + String(encoded[(8 * end / 6)...])
        #expect(redactor.redact(String(encoded)) == expected)
        let urlSafe = String(encoded).replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        #expect(redactor.redact(urlSafe).contains("***"))
    }

    @Test func wrappedBase64OfALongSecretIsMaskedLineByLine() {
        let long = "-----BEGIN-----" + String(repeating: "k3y/M4t3rial+", count: 12) + "-----END-----"
        let redactor = Redactor(secrets: [long])
        let wrapped = Data((long + "\n").utf8).base64EncodedString(options: .lineLength76Characters)
        let lines = wrapped.components(separatedBy: "\r\n")
        #expect(lines.count == 4)
        for line in lines { #expect(redactor.redact(line) == "***", "line '\(line)'") }
    }

    @Test func percentEncodedFormsAreMasked() {
        let redactor = Redactor(secrets: ["p@ss w/rd:100%"])
        #expect(redactor.redact("url=https://h/?p=p%40ss%20w%2Frd%3A100%25&x=1") == "url=https://h/?p=***&x=1")
        #expect(redactor.redact("p%40ss+w%2frd%3a100%25") == "***")          // form style, lower-case hex
        #expect(redactor.redact("p@ss%20w/rd:100%25") == "***")              // only some bytes encoded
        #expect(redactor.redact("%70%40%73%73%20%77%2f%72%64%3a%31%30%30%25") == "***")   // every byte
        #expect(redactor.redact("p%40ss w%2Frd") == "p%40ss w%2Frd", "a part of the secret is not masked")
    }

    @Test func jsonEscapedFormsAreMasked() throws {
        let secret = "a/b\"c\\d\té-😀"
        let redactor = Redactor(secrets: [secret])
        let encoded = String(decoding: try JSONEncoder().encode(["t": secret]), as: UTF8.self)
        #expect(encoded.contains("\\/") && encoded.contains("\\\""))
        #expect(redactor.redact(encoded) == "{\"t\":\"***\"}")
        let serialized = String(decoding: try JSONSerialization.data(withJSONObject: ["t": secret]), as: UTF8.self)
        #expect(redactor.redact(serialized) == "{\"t\":\"***\"}")
        let ascii = "a\\u002Fb\\\"c\\\\d\\u0009\\u00e9-\\ud83d\\ude00"                 // ensure_ascii style
        #expect(redactor.redact("\"\(ascii)\"") == "\"***\"")
        #expect(redactor.redact("a\\/b and c\\\\d") == "a\\/b and c\\\\d")
    }

    @Test func overlappingSecretsAreMaskedAsOneAndUnicodeTextSurvives() {
        let redactor = Redactor(secrets: ["abcdef", "defghi"])
        #expect(redactor.redact("é abcdefghi ü") == "é *** ü")
        #expect(redactor.redact("abcdefdefghi") == "******")
    }
}
