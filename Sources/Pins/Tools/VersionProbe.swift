import Basics
import Foundation

/// Runs a tool's version command and reads the version from what it prints.
struct VersionProbe: Sendable {
    let processRunner: any ProcessRunner
    let environment: Environment
    /// A tool that has not answered by then is taken to print nothing.
    var timeout: Duration = .seconds(20)

    /// What the command printed (standard output, then standard error).
    func output(of executable: String, arguments: [String]) async throws -> String {
        let spec = ProcessSpec(executable: executable, arguments: arguments, environment: environment.variables)
        let runner = processRunner
        let limit = timeout
        let result = try await withThrowingTaskGroup(of: ProcessResult?.self) { group in
            group.addTask { try await runner.run(spec) }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        guard let result else { return "" }
        let out = result.outputText, err = result.errorText
        return err.isEmpty ? out : out.isEmpty ? err : out + "\n" + err
    }

    /// The version in `output`: by `pattern` (its first group, else the whole match), or, without
    /// one, the first `MAJOR.MINOR.PATCH[-PRE][+BUILD]` that stands alone (optionally after a
    /// `v`). With a pattern, one- and two-part numbers (`5.8`) are read as `5.8.0`.
    static func parse(_ output: String, pattern: String?) -> SemanticVersion? {
        guard let pattern else { return firstSemanticVersion(in: output) }
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return nil }
        let range = NSRange(output.startIndex..., in: output)
        for match in regex.matches(in: output, range: range) {
            let group = match.numberOfRanges > 1 && match.range(at: 1).location != NSNotFound ? 1 : 0
            guard let found = Range(match.range(at: group), in: output) else { continue }
            if let version = lenient(String(output[found])) { return version }
        }
        return nil
    }

    /// Scans for the first semantic version without a regular expression engine (this runs for
    /// every tool on every cold verify, and loading ICU for it would cost more than the scan).
    static func firstSemanticVersion(in output: String) -> SemanticVersion? {
        let bytes = Array(output.utf8)
        var index = 0
        while index < bytes.count {
            defer { index += 1 }
            guard isDigit(bytes[index]) else { continue }
            if index > 0, isWordCharacter(bytes[index - 1]) && bytes[index - 1] != UInt8(ascii: "v") || bytes[index - 1] == 0x2E {
                continue
            }
            var end = index
            var dots = 0
            while end < bytes.count, isDigit(bytes[end]) || (bytes[end] == 0x2E && dots < 2 && end + 1 < bytes.count && isDigit(bytes[end + 1])) {
                if bytes[end] == 0x2E { dots += 1 }
                end += 1
            }
            guard dots == 2 else { continue }
            end = suffixEnd(bytes, from: end)
            if let version = SemanticVersion(String(decoding: bytes[index..<end], as: UTF8.self)) { return version }
        }
        return nil
    }

    /// The end of an optional `-PRE` and `+BUILD` after a version's core.
    private static func suffixEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var end = start
        for marker in [UInt8(ascii: "-"), UInt8(ascii: "+")] {
            guard end + 1 < bytes.count, bytes[end] == marker, isIdentifierCharacter(bytes[end + 1]) else { continue }
            var next = end + 1
            while next < bytes.count, isIdentifierCharacter(bytes[next]) || (bytes[next] == 0x2E && next + 1 < bytes.count
                && isIdentifierCharacter(bytes[next + 1])) {
                next += 1
            }
            end = next
        }
        return end
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    private static func isWordCharacter(_ byte: UInt8) -> Bool {
        isDigit(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
    private static func isIdentifierCharacter(_ byte: UInt8) -> Bool { isWordCharacter(byte) || byte == UInt8(ascii: "-") }

    private static func lenient(_ text: String) -> SemanticVersion? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let version = SemanticVersion(tag: trimmed) { return version }
        let bare = trimmed.hasPrefix("v") ? String(trimmed.dropFirst()) : trimmed
        let parts = bare.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else { return nil }
        return SemanticVersion((parts + Array(repeating: "0", count: 3 - parts.count)).joined(separator: "."))
    }
}
