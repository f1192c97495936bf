import Basics
import Testing
import TestThreads

/// Untrusted text reaches the terminal without the control sequences a terminal acts on.
@Suite(.dedicatedThreads) struct TerminalSafeTextTests {
    @Test func plainTextIsUnchanged() {
        let text = "Build 42 · ✓ done\ttab\nnext line\r\nwindows line, émoji 🚀, bidi \u{202E}kept\n"
        #expect(TerminalSafeText.sanitized(text) == text)
    }

    @Test func slipwaysOwnColoursAndProgressSurvive() {
        let painted = TerminalStyle(colors: true, interactive: true).paint("failed", .red)
        #expect(TerminalSafeText.sanitized(painted) == painted)
        let progress = "\r\u{1B}[K\u{1B}[2mMoving files: 3/400 (0%)\u{1B}[0m"
        #expect(TerminalSafeText.sanitized(progress) == progress)
        #expect(TerminalSafeText.sanitized("\u{1B}[1;32mok\u{1B}[0m") == "\u{1B}[1;32mok\u{1B}[0m")
    }

    @Test func hostileSequencesAreRemoved() {
        let cases: [(String, String)] = [
            ("\u{1B}]52;c;SGVsbG8=\u{07}copied", "copied"),                       // OSC 52: writes the clipboard
            ("\u{1B}]8;;https://evil.example\u{1B}\\link\u{1B}]8;;\u{1B}\\", "link"), // OSC 8 hyperlink
            ("\u{1B}]0;title\u{07}x", "x"),                                         // window title
            ("\u{1B}[2J\u{1B}[Hclear", "clear"),                                    // clear screen, cursor home
            ("\u{1B}[8mhidden\u{1B}[0m", "hidden\u{1B}[0m"),                        // conceal is not a colour
            ("\u{1B}[38;5;196mx", "x"),                                             // 256-colour form refused whole
            ("a\u{1B}[1Ab", "ab"),                                                  // cursor up
            ("fake ok\rreal error", "fake okreal error"),                           // \r overwrite
            ("\u{1B}[Kx", "x"),                                                     // erase-line not after \r
            ("bell\u{07}\u{08}\u{7F}\u{00}", "bell"),                               // C0 and DEL
            ("c1\u{9B}2Jcsi\u{9D}0;t\u{9C}", "c12Jcsi0;t"),                         // C1 controls (CSI, OSC, ST)
            ("\u{1B}Pq#0;2;0;0;0\u{1B}\\sixel", "sixel"),                           // DCS
            ("\u{1B}cRIS", "RIS"),                                                  // reset
            ("tail\u{1B}", "tail"),                                                 // cut sequence
            ("\u{1B}[", ""),
            ("\u{1B}]52;c;unterminated", ""),
        ]
        for (input, expected) in cases {
            #expect(TerminalSafeText.sanitized(input) == expected, "\(input.debugDescription)")
        }
    }

    @Test func theOutputWrapperSanitizesEveryWrite() {
        let buffer = BufferedOutput()
        let output = TerminalSafeOutput(buffer)
        output.write("\u{1B}]52;c;AAAA\u{07}one\n")
        output.write("two\u{1B}[2J\n")
        #expect(buffer.text == "one\ntwo\n")
    }
}
