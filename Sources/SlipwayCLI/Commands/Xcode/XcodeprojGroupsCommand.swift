import ArgumentParser
import Basics
import Foundation
import PBXProj

/// `slipway xcodeproj groups PATH [--json]`.
struct XcodeprojGroupsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "groups",
        abstract: "Print the project's group tree with every element's resolved path.",
        discussion: """
            One line per group, file or synchronized folder, indented by depth, with where it \
            points on disk: a path relative to the folder holding the .xcodeproj, an absolute \
            path, or a build setting such as $(BUILT_PRODUCTS_DIR) left symbolic. --json prints \
            the same tree as nested objects with sorted keys (id, isa, name, path, sourceTree, \
            resolvedPath, children).

            EXAMPLE:
              slipway xcodeproj groups App.xcodeproj --json
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: XcodeprojSupport.pathHelp)
    var path: String

    @Flag(help: "Print JSON instead of an indented tree.")
    var json = false

    func run() async throws {
        let env = global.environment()
        let path = XcodeprojSupport.resolve(self.path, global)
        let (project, file) = try XcodeprojSupport.load(path, in: env)
        let tree: GroupTree
        do {
            tree = try project.groupTree()
        } catch {
            throw XcodeprojSupport.report(error, file: file, in: env)
        }
        env.standardOutput.write(json ? GroupTreeText.json(tree) : GroupTreeText.outline(tree, name: file.projectName))
    }
}

/// Renders a group tree, without recursion (a tree may be very deep).
enum GroupTreeText {
    /// An indented outline: `name  →  resolved path`, names and paths (the pbxproj's, untrusted)
    /// with their control characters escaped.
    static func outline(_ tree: GroupTree, name: String) -> String {
        var out = ""
        for node in tree.nodes {
            let indent = String(repeating: "  ", count: node.depth)
            let label = (node.parent == nil ? name + ".xcodeproj" : (node.element.displayName ?? "(unnamed)")).displaySafe
            let suffix = node.element.children.isEmpty && node.element.kind != .group ? "" : "/"
            let resolved = node.resolvedPath.description.isEmpty ? "." : node.resolvedPath.description.displaySafe
            out += "\(indent)\(label)\(suffix)  →  \(resolved)\n"
        }
        return out
    }

    /// Nested JSON objects with sorted keys ("children" first), two-space indentation.
    static func json(_ tree: GroupTree) -> String {
        guard !tree.nodes.isEmpty else { return "null\n" }
        enum Step {
            case open(Int, depth: Int, last: Bool)
            case close(fields: [String], depth: Int, last: Bool)
        }
        var out = ""
        var stack: [Step] = [.open(0, depth: 0, last: true)]
        while let step = stack.popLast() {
            switch step {
            case .open(let index, let depth, let last):
                let node = tree.nodes[index]
                let pad = String(repeating: "    ", count: depth)
                let fields = fieldLines(node)
                if node.children.isEmpty {
                    let lines = ["\"children\" : []"] + fields
                    out += pad + "{\n" + lines.map { pad + "  " + $0 }.joined(separator: ",\n") + "\n" + pad + "}" + (last ? "" : ",") + "\n"
                    continue
                }
                out += pad + "{\n" + pad + "  \"children\" : [\n"
                stack.append(.close(fields: fields, depth: depth, last: last))
                for (position, child) in node.children.enumerated().reversed() {
                    stack.append(.open(child, depth: depth + 1, last: position == node.children.count - 1))
                }
            case .close(let fields, let depth, let last):
                let pad = String(repeating: "    ", count: depth)
                out += pad + "  ]" + fields.map { ",\n" + pad + "  " + $0 }.joined() + "\n" + pad + "}" + (last ? "" : ",") + "\n"
            }
        }
        return out
    }

    /// The scalar fields of a node, in sorted key order after "children".
    private static func fieldLines(_ node: GroupTree.Node) -> [String] {
        var fields: [(String, String?)] = [
            ("id", node.element.id.rawValue), ("isa", node.element.isa), ("name", node.element.name),
            ("path", node.element.path), ("resolvedPath", node.resolvedPath.description), ("sourceTree", node.element.sourceTree),
        ]
        fields.sort { $0.0 < $1.0 }
        return fields.map { "\(JSONFormatting.quoted($0.0)) : \($0.1.map(JSONFormatting.quoted) ?? "null")" }
    }

}
