import Basics
import Foundation
import Testing
import TestThreads

/// Issue 23 item 6: the forms a secret takes when a stream is cut (long lines, wrapped base64)
/// or shell-quoted, on the redactor and the line buffer alone.
@Suite(.dedicatedThreads) struct RedactingLineBufferTests {
    static let secret = "it's a t0ken-4711\u{7}"
    let redactor = Redactor(secrets: [Self.secret])

    /// Feeds `text` to a buffer in `chunk`-byte reads and returns the lines, each then masked
    /// on its own, as the event bus does.
    func lines(of text: String, chunk: Int, maximumLineLength: Int = 1 << 16) -> [String] {
        var buffer = RedactingLineBuffer(redactor: redactor)
        buffer.maximumLineLength = maximumLineLength
        let bytes = Array(text.utf8)
        var out: [String] = []
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            out += buffer.append(Array(bytes[start..<min(start + chunk, bytes.count)]))
        }
        return (out + buffer.finish()).map(redactor.redact)
    }

    @Test func shellQuotedFormsAreMasked() {
        let tail = "t0ken-4711"
        #expect(redactor.redact("+ : 'it'\\''s a \(tail)\u{7}' done") == "+ : '***' done")         // set -x
        #expect(redactor.redact("it\\'s\\ a\\ \(tail)\\\u{7}") == "***")                            // printf %q
        #expect(redactor.redact("+ : $'it\\'s a \(tail)\\a'") == "+ : $'***'")                       // $'…'
        #expect(redactor.redact("$'it\\'s a \(tail)\\007'") == "$'***'")                              // octal
        #expect(redactor.redact("$'it\\'s a \(tail)\\x07'") == "$'***'")                              // hex
        #expect(redactor.redact("'it'\"'\"'s a \(tail)\u{7}'") == "'***'")                            // '"'"'
        // Other quotes of other text stay.
        #expect(redactor.redact("+ : 'it'\\''s a token'") == "+ : 'it'\\''s a token'")
    }

    @Test(arguments: [1, 7, 4096, 1 << 20])
    func aSecretAcrossTheCutOfALongLineIsMasked(chunk: Int) {
        let text = String(repeating: "a", count: 65_530) + Self.secret + String(repeating: "b", count: 140_000) + "\nnext\n"
        let out = lines(of: text, chunk: chunk)
        #expect(out.last == "next")
        #expect(out.dropLast().joined() == String(repeating: "a", count: 65_530) + "***" + String(repeating: "b", count: 140_000))
        // A line that arrives whole in one read is passed on whole; one that arrives in reads is
        // cut in pieces of at most 64 KiB.
        if chunk < text.utf8.count {
            #expect(out.count >= 4)
            #expect(out.allSatisfy { $0.utf8.count <= 1 << 16 })
        }
    }

    /// Prefixes 38...44 put the token inside the first line (38), or across its break.
    @Test(arguments: [76, 64], [1, 3, 100])
    func base64WrappedAcrossALineBreakIsMaskedOnBothLines(width: Int, chunk: Int) {
        for prefix in 38...44 {
            let data = Data(Array(repeating: UInt8(ascii: "x"), count: prefix) + Array(Self.secret.utf8) + Array(repeating: 0x79, count: 200))
            let wrapped = data.base64EncodedString(options: width == 76 ? .lineLength76Characters : .lineLength64Characters)
                .replacingOccurrences(of: "\r\n", with: "\n")
            let out = lines(of: "before\n" + wrapped + "\nafter\n", chunk: chunk)
            #expect(out.first == "before" && out.last == "after")
            let joined = out.dropFirst().dropLast().joined()
            let original = wrapped.replacingOccurrences(of: "\n", with: "")
            #expect(!joined.contains(Self.core(at: prefix % 3)), "prefix \(prefix): \(out)")
            #expect(joined.replacingOccurrences(of: "***", with: "").count < original.count - 20)
        }
    }

    @Test func longLinesOfInvalidOrMultiByteUTF8AreCutAndNothingIsLost() {
        for redactor in [Redactor.none, redactor] {
            var buffer = RedactingLineBuffer(redactor: redactor)
            let junk = [UInt8](repeating: 0x80, count: 200_000)
            let pieces = buffer.append(junk) + buffer.finish()
            #expect(pieces.count >= 3)
            var text = RedactingLineBuffer(redactor: redactor)
            let accented = String(repeating: "é", count: 100_000)
            let cut = text.append(Array(accented.utf8)) + text.finish()
            #expect(cut.joined() == accented, "no character split by a cut")
        }
    }

    @Test func ordinaryLinesAreNotHeldBack() {
        var buffer = RedactingLineBuffer(redactor: redactor)
        #expect(buffer.append(Array("one\ntwo\n".utf8)) == ["one", "two"])
        // A 76-column base64 line may go on: it waits for the next line.
        let full = String(repeating: "QUJD", count: 19)
        #expect(buffer.append(Array((full + "\n").utf8)) == [])
        #expect(buffer.append(Array("QUJD\n".utf8)) == [full, "QUJD"])
        #expect(buffer.append(Array((full + "\n").utf8)) == [])
        #expect(buffer.finish() == [full])
        // Without secrets nothing waits.
        var plain = RedactingLineBuffer(redactor: .none)
        #expect(plain.append(Array((full + "\n").utf8)) == [full])
    }

    /// The base64 characters made only of the secret's bits at `offset` in a 3-byte group.
    static func core(at offset: Int) -> String {
        let encoded = Array(Data(Array(repeating: 0, count: offset) + Array(secret.utf8)).base64EncodedString().utf8)
        return String(decoding: encoded[((8 * offset + 5) / 6)..<(8 * (offset + secret.utf8.count) / 6)], as: UTF8.self)
    }
}
