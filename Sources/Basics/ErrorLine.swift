import Foundation

/// How every Slipway executable prints an error: `error: MESSAGE` on standard error (the prefix in
/// red when colours are on), the message's control characters escaped and its line breaks kept
/// (errors quote names from the checkout and from servers), and under GitHub Actions an
/// `::error::` annotation on standard output too. `slipway` (its commands' `printError`) and
/// `slipway-merge-driver` print through this one function.
public enum ErrorLine {
    public static func write(_ message: String, style: TerminalStyle, gitHubActions: Bool,
                             standardError: any TextOutput, standardOutput: any TextOutput) {
        let text = DisplayText.untrustedLines(message)
        standardError.write(style.paint("error: ", .red) + text + "\n")
        if gitHubActions {
            standardOutput.write("::error::\(text.replacingOccurrences(of: "\n", with: "%0A"))\n")
        }
    }
}
