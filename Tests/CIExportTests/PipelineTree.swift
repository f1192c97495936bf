@testable import CIExport
import Foundation
import TestSupport
import Yams

/// A YAML document as values, for comparing what a parser read back with what the renderer
/// meant to write: scalars keep their resolved type, mappings their keys in order (a key given
/// twice stays twice, so an injected key shows).
indirect enum PipelineTree: Equatable, CustomStringConvertible {
    case string(String), int(Int), bool(Bool), null
    /// A scalar of another type (a float, a date): never what Slipway writes.
    case other(tag: String, text: String)
    case list([PipelineTree])
    case map([Pair])

    struct Pair: Equatable {
        var key: String
        var value: PipelineTree
    }

    /// What Yams (its default, YAML 1.1-style resolver: `yes`, `on` are booleans) reads from `text`.
    static func parse(_ text: String) throws -> PipelineTree? {
        try Yams.compose(yaml: text).map(PipelineTree.init)
    }

    init(_ node: Yams.Node) {
        switch node {
        case .scalar(let scalar):
            let tag = node.tag.description
            switch tag {
            case Tag.Name.str.rawValue: self = .string(scalar.string)
            case Tag.Name.int.rawValue: self = Int(scalar.string).map(PipelineTree.int) ?? .other(tag: tag, text: scalar.string)
            case Tag.Name.bool.rawValue where ["true", "false"].contains(scalar.string): self = .bool(scalar.string == "true")
            case Tag.Name.null.rawValue: self = .null
            default: self = .other(tag: tag, text: scalar.string)
            }
        case .sequence(let sequence): self = .list(sequence.map(PipelineTree.init))
        case .mapping(let mapping):
            self = .map(mapping.map { pair in
                Pair(key: pair.key.scalar?.string ?? "<non-scalar key>", value: PipelineTree(pair.value))
            })
        case .alias: self = .other(tag: "alias", text: "")
        }
    }

    /// The value `node` stands for.
    init(_ node: PipelineNode) {
        switch node {
        case .string(let text): self = .string(text)
        case .block(let lines): self = .string(lines.joined(separator: "\n") + "\n")
        case .int(let number): self = .int(number)
        case .bool(let flag): self = .bool(flag)
        case .empty: self = .null
        case .list(let items): self = .list(items.map(PipelineTree.init))
        case .flowList(let items): self = .list(items.map(PipelineTree.string))
        case .map(let entries): self = .map(entries.map { Pair(key: $0.key, value: PipelineTree($0.value)) })
        }
    }

    /// The value under `key` of a mapping (nil when absent, not a mapping, or there twice).
    subscript(key: String) -> PipelineTree? {
        guard case .map(let pairs) = self else { return nil }
        let found = pairs.filter { $0.key == key }
        return found.count == 1 ? found[0].value : nil
    }

    /// The item at `index` of a list.
    subscript(index: Int) -> PipelineTree? {
        guard case .list(let items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }

    /// The keys of a mapping, in order.
    var keys: [String] {
        guard case .map(let pairs) = self else { return [] }
        return pairs.map(\.key)
    }

    /// The items of a list.
    var items: [PipelineTree] {
        guard case .list(let items) = self else { return [] }
        return items
    }

    /// The text of a string scalar.
    var text: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    var description: String {
        switch self {
        case .string(let text): return String(reflecting: text)
        case .int(let number): return String(number)
        case .bool(let flag): return String(flag)
        case .null: return "null"
        case .other(let tag, let text): return "!<\(tag)> \(String(reflecting: text))"
        case .list(let items): return "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .map(let pairs): return "{" + pairs.map { "\(String(reflecting: $0.key)): \($0.value)" }.joined(separator: ", ") + "}"
        }
    }
}

/// A folder in which generated shell commands run with stand-ins for `slipway` and
/// `buildkite-agent` first on PATH: each records its arguments (and whether the lane's secrets
/// are set) instead of doing anything. A command that breaks out of its quoting would create
/// the file `pwned` in `work/`.
final class ShellSandbox {
    let folder: TemporaryDirectory
    var work: String { folder.path + "/work" }
    private var record: String { folder.path + "/calls" }
    /// The variables the `slipway` stand-in reports as set or unset.
    let watched: [String]

    /// One recorded call: the program's name and its arguments, and `NAME=value` or `NAME unset`
    /// for each watched variable (for `slipway`).
    struct Call: Equatable, CustomStringConvertible {
        var argv: [String]
        var environment: [String]
        var description: String { argv.map { String(reflecting: $0) }.joined(separator: " ") + " " + environment.joined(separator: " ") }
    }

    init(watching watched: [String]) throws {
        folder = try TemporaryDirectory(prefix: "slipway-ci-sandbox")
        self.watched = watched
        try folder.write("work/.keep", "")
        let report = watched.map { "if [ \"${\($0)+set}\" = set ]; then printf '%s\\0' \"\($0)=$\($0)\"; else printf '%s\\0' '\($0) unset'; fi" }
        try installStandIn("slipway", report: report.joined(separator: "\n"), body: "")
        try installStandIn("buildkite-agent", report: "", body: """
            if [ "$1" = meta-data ] && [ "$2" = get ]; then
              if [ "$4" = --default ]; then printf '%s' "$5"; else printf 'answer-%s' "$3"; fi
            fi
            """)
    }

    private func installStandIn(_ name: String, report: String, body: String) throws {
        let path = try folder.write("bin/\(name)", """
            #!/bin/sh
            { printf '%s\\0' \(name) "$@"; printf '\\001\\0'
            \(report)
            printf '\\036'; } >> '\(record)'
            \(body)

            """)
        _ = try CommandResult.run("/bin/chmod", ["755", path])
    }

    /// `bash -n`: the script parses.
    func syntaxCheck(_ script: String) throws -> CommandResult {
        try CommandResult.run("/bin/bash", ["-n", "-c", script], in: work)
    }

    /// Runs `script` as GitHub's `shell: bash` does (`-e -o pipefail`), with `environment`.
    func run(_ script: String, environment: [String: String]) throws -> CommandResult {
        var env: [String: String?] = ["PATH": folder.path + "/bin:/usr/bin:/bin", "HOME": folder.path]
        for name in watched { env[name] = nil }
        for (name, value) in environment { env[name] = value }
        return try CommandResult.run("/bin/bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script],
                                     in: work, environment: env)
    }

    /// The calls recorded so far, in order; cleared.
    func takeCalls() throws -> [Call] {
        guard let data = FileManager.default.contents(atPath: record) else { return [] }
        try FileManager.default.removeItem(atPath: record)
        return data.split(separator: 0x1E, omittingEmptySubsequences: true).map { bytes in
            let fields = bytes.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
            let cut = fields.firstIndex(of: "\u{1}") ?? fields.count
            return Call(argv: Array(fields[..<cut]), environment: Array(fields[min(cut + 1, fields.count)...]))
        }
    }

    /// Every path under the sandbox named `pwned`: what an injected command would create.
    func markers() throws -> [String] {
        try Snapshot.of(folder.path).keys.filter { ($0 as NSString).lastPathComponent == "pwned" }.sorted()
    }
}
