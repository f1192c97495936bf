import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Somewhere text goes: standard output, standard error, a file, or a test's buffer.
public protocol TextOutput: Sendable {
    /// Writes the text as is (no newline added).
    func write(_ text: String)
}

/// A file descriptor as a `TextOutput`; writes are unbuffered and whole.
public struct FileDescriptorOutput: TextOutput {
    /// The descriptor.
    public let descriptor: Int32

    /// Standard output.
    public static let standardOutput = FileDescriptorOutput(descriptor: 1)
    /// Standard error.
    public static let standardError = FileDescriptorOutput(descriptor: 2)

    /// Wraps a descriptor.
    public init(descriptor: Int32) { self.descriptor = descriptor }

    public func write(_ text: String) {
        // A closed or failing output loses the text: printing never fails a command.
        try? FileDescriptorIO.writeAll(descriptor, Array(text.utf8))
    }

    /// True when the descriptor is a terminal.
    public var isTerminal: Bool { isatty(descriptor) == 1 }
}

/// Collects text in memory (tests, and the CLI's own buffering).
public final class BufferedOutput: TextOutput, Sendable {
    private let storage = Locked("")

    /// An empty buffer.
    public init() {}

    public func write(_ text: String) { storage.withLock { $0 += text } }

    /// Everything written so far.
    public var text: String { storage.value }
}

/// How to style human output: colour and live updates only on a terminal, never when
/// `NO_COLOR` is set (https://no-color.org) or `TERM=dumb`.
public struct TerminalStyle: Sendable {
    /// Whether ANSI colours are used.
    public var colors: Bool
    /// Whether lines may be rewritten in place (progress).
    public var interactive: Bool

    /// Explicit settings.
    public init(colors: Bool, interactive: Bool) {
        self.colors = colors
        self.interactive = interactive
    }

    /// Plain text, no escapes.
    public static let plain = TerminalStyle(colors: false, interactive: false)

    /// The style for a descriptor in an environment.
    public static func detect(for output: FileDescriptorOutput, environment: Environment) -> TerminalStyle {
        let tty = output.isTerminal && environment["TERM"] != "dumb"
        let colors = tty && environment["NO_COLOR"].map(\.isEmpty) ?? true
        return TerminalStyle(colors: colors, interactive: tty)
    }

    /// ANSI styles used by Slipway's output.
    public enum Color: String, Sendable {
        case red = "31", green = "32", yellow = "33", blue = "34", magenta = "35", cyan = "36"
        case bold = "1", dim = "2"
    }

    /// `text` wrapped in the colour's escape codes when colours are on.
    public func paint(_ text: String, _ color: Color) -> String {
        colors ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
    }
}
