import PBXProj

/// File references whose file is not on disk.
public struct MissingFileRule: LintRule {
    public init() {}
    public var id: String { "missing-file" }
    public var summary: String { "A file reference points at a file that does not exist." }
    public var defaultSeverity: LintSeverity { .error }
    public var examples: [LintExample] {
        [LintExample("a reference to a deleted file",
                     objects: ["A = {isa = PBXFileReference; path = App.swift; sourceTree = \"<group>\"; };",
                               "B = {isa = PBXFileReference; path = Gone.swift; sourceTree = \"<group>\"; };"],
                     mainChildren: ["A", "B"], files: ["App.swift"],
                     expected: ["9: 'Gone.swift' does not exist (file reference 'Gone.swift'); restore the file or remove the reference"]),
         LintExample("paths through the project's folder and the project's own settings are checked",
                     objects: ["A = {isa = PBXFileReference; path = \"$(SRCROOT)/Vendor/lib.c\"; sourceTree = \"<group>\"; };",
                               "B = {isa = PBXFileReference; path = \"${PROJECT_DIR}/$(VENDOR)/gone.c\"; sourceTree = \"<group>\"; };"],
                     mainChildren: ["A", "B"], settings: "VENDOR = Vendor;", files: ["Vendor/lib.c"],
                     expected: ["9: 'Vendor/gone.c' does not exist (file reference '${PROJECT_DIR}/$(VENDOR)/gone.c'); restore the file or remove the reference"])]
    }

    public func check(_ context: LintContext) -> [LintFinding] {
        context.references.checked.filter { !context.files.exists($0.path) }.map { reference in
            finding("'\(reference.path)' does not exist (file reference '\(reference.name)'); restore the file or remove the reference",
                    at: reference.id, in: context, subject: reference.path)
        }
    }
}
