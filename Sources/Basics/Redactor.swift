/// Replaces every occurrence of a secret's value with `***`. One redactor sits between every
/// producer of text (child processes, steps, errors) and every consumer (terminal, events file,
/// JUnit report, run journal), so a secret cannot reach any of them.
public struct Redactor: Sendable {
    /// What a secret is replaced with.
    public static let mask = "***"
    private let secrets: [String]

    /// A redactor for these secret values. Multi-line secrets are also masked line by line,
    /// because output arrives in lines; values shorter than 3 characters are not masked (they
    /// would mask ordinary text everywhere) — the lane validator warns about those.
    public init(secrets: [String]) {
        var values = Set<String>()
        for secret in secrets where secret.count >= 3 {
            values.insert(secret)
            for line in secret.split(whereSeparator: \.isNewline) where line.count >= 3 {
                values.insert(String(line))
            }
        }
        // Longest first, so a secret that contains another is masked whole.
        self.secrets = values.sorted { $0.count > $1.count }
    }

    /// A redactor that masks nothing.
    public static let none = Redactor(secrets: [])

    /// True when there is nothing to mask.
    public var isEmpty: Bool { secrets.isEmpty }

    /// `text` with every secret masked.
    public func redact(_ text: String) -> String {
        guard !secrets.isEmpty else { return text }
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: Redactor.mask)
        }
        return result
    }

    /// Every string in a dictionary masked.
    public func redact(_ values: [String: String]) -> [String: String] {
        values.mapValues(redact)
    }
}

/// Cuts a byte stream into lines, so that a secret split across two reads is still seen whole.
public struct LineBuffer: Sendable {
    private var pending: [UInt8] = []
    /// Lines longer than this are emitted in pieces.
    public var maximumLineLength = 1 << 16

    /// An empty buffer.
    public init() {}

    /// Appends bytes; returns the complete lines now available, without their newline.
    public mutating func append(_ bytes: [UInt8]) -> [String] {
        pending.append(contentsOf: bytes)
        var lines: [String] = []
        var start = 0
        for index in pending.indices where pending[index] == 0x0A {
            var end = index
            if end > start && pending[end - 1] == 0x0D { end -= 1 }
            lines.append(String(decoding: pending[start..<end], as: UTF8.self))
            start = index + 1
        }
        pending.removeFirst(start)
        if pending.count > maximumLineLength {
            lines.append(String(decoding: pending, as: UTF8.self))
            pending.removeAll()
        }
        return lines
    }

    /// Whatever is left after the stream ended (a last line without a newline), or nil.
    public mutating func finish() -> String? {
        defer { pending.removeAll() }
        return pending.isEmpty ? nil : String(decoding: pending, as: UTF8.self)
    }
}
