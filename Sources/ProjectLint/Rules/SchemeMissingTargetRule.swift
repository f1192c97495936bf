import PBXProj

/// Shared schemes that build or run a target this project no longer has.
public struct SchemeMissingTargetRule: LintRule {
    public init() {}
    public var id: String { "scheme-missing-target" }
    public var summary: String { "A shared scheme (xcshareddata/xcschemes) names a target the project no longer has." }
    public var defaultSeverity: LintSeverity { .error }
    public var examples: [LintExample] {
        [LintExample("a scheme still building a removed target",
                     objects: ["T = {isa = PBXNativeTarget; buildPhases = (); name = App; };"],
                     targets: ["T"],
                     texts: ["Example.xcodeproj/xcshareddata/xcschemes/App.xcscheme": Self.exampleScheme],
                     expected: ["Example.xcodeproj/xcshareddata/xcschemes/App.xcscheme:6: scheme 'App' names target 'OldApp' ('GONE'), which the project no longer has; edit the scheme or delete it"])]
    }

    /// The scheme the example reads.
    static let exampleScheme = """
        <?xml version="1.0" encoding="UTF-8"?>
        <Scheme version = "1.7">
           <BuildAction>
              <BuildableReference
                 BuildableIdentifier = "primary"
                 BlueprintIdentifier = "GONE"
                 BuildableName = "OldApp.app"
                 BlueprintName = "OldApp"
                 ReferencedContainer = "container:Example.xcodeproj">
              </BuildableReference>
              <BuildableReference
                 BlueprintIdentifier = "T"
                 BlueprintName = "App"
                 ReferencedContainer = "container:Example.xcodeproj">
              </BuildableReference>
           </BuildAction>
        </Scheme>

        """

    public func check(_ context: LintContext) -> [LintFinding] {
        guard let project = context.project else { return [] }
        let folder = context.bundlePath + "/xcshareddata/xcschemes"
        guard let names = context.files.list(folder) else { return [] }
        var findings: [LintFinding] = []
        for name in names where name.hasSuffix(".xcscheme") {
            let path = folder + "/" + name
            guard let bytes = context.files.read(path) else { continue }
            let scheme = String(name.dropLast(".xcscheme".count))
            for reference in SchemeReferences.read(String(decoding: bytes, as: UTF8.self))
            where ProjectPath.lastComponent(reference.container) == context.bundlePath && !project.contains(ObjectID(reference.identifier)) {
                findings.append(LintFinding(
                    ruleID: id, severity: defaultSeverity,
                    message: "scheme '\(scheme)' names target '\(reference.name)' ('\(reference.identifier)'), which the project no longer has; edit the scheme or delete it",
                    path: path, line: reference.line, column: nil, subject: path))
            }
        }
        return findings
    }
}

/// The `BuildableReference`s of a scheme, read line by line (Xcode writes one attribute a line).
enum SchemeReferences {
    struct Reference: Hashable {
        var identifier = ""
        var name = ""
        var container = ""
        var line = 0
    }

    static func read(_ text: String) -> [Reference] {
        var result: [Reference] = []
        var current: Reference?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix("<BuildableReference") { current = Reference() }
            guard var reference = current else { continue }
            if let value = attribute("BlueprintIdentifier", trimmed) { reference.identifier = value; reference.line = index + 1 }
            if let value = attribute("BlueprintName", trimmed) { reference.name = value }
            if let value = attribute("ReferencedContainer", trimmed) {
                reference.container = value.hasPrefix("container:") ? String(value.dropFirst("container:".count)) : value
            }
            current = reference
            if trimmed.contains(">") {
                if !reference.identifier.isEmpty { result.append(reference) }
                current = nil
            }
        }
        return result
    }

    private static func attribute(_ name: String, _ line: Substring) -> String? {
        guard line.hasPrefix(name) else { return nil }
        let parts = line.split(separator: "\"", omittingEmptySubsequences: false)
        return parts.count >= 2 ? String(parts[1]) : nil
    }
}
