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
        context.references.missing.map { reference in
            finding("'\(reference.path)' does not exist (file reference '\(reference.name)'); restore the file or remove the reference",
                    at: reference.id, in: context, subject: reference.path)
        }
    }
}

/// File references that name a file in another case than the disk has it.
public struct CaseMismatchRule: LintRule {
    public init() {}
    public var id: String { "case-mismatch" }
    public var summary: String {
        "A file reference or a build setting (`missing-setting-file`'s) spells a file's path in another case than the disk: found on a case-insensitive disk (macOS's default), missing on a case-sensitive one (Linux CI, case-sensitive APFS)."
    }
    public var defaultSeverity: LintSeverity { .warning }
    public var examples: [LintExample] {
        [LintExample("a localized file renamed in another case",
                     objects: ["A = {isa = PBXFileReference; path = de.lproj/InfoPlist.strings; sourceTree = \"<group>\"; };"],
                     mainChildren: ["A"], files: ["de.lproj/infoPlist.strings"],
                     expected: ["8: 'de.lproj/InfoPlist.strings' is on disk as 'de.lproj/infoPlist.strings' (file reference 'de.lproj/InfoPlist.strings'); it builds only on a case-insensitive disk: rename the file or the reference so that they match"])]
    }

    public func check(_ context: LintContext) -> [LintFinding] {
        context.references.caseMismatches.map { reference, actual in
            finding("'\(reference.path)' is on disk as '\(actual)' (file reference '\(reference.name)'); it builds only on a case-insensitive disk: rename the file or the reference so that they match",
                    at: reference.id, in: context, subject: reference.path)
        } + context.references.settingCaseMismatches.map { setting, actual in
            finding("\(setting.key ?? "the base configuration file") of configuration '\(setting.configurationName)' (\(setting.owner)) names '\(setting.value)', "
                    + "which is on disk as '\(actual)'; it builds only on a case-insensitive disk: rename the file or fix the setting so that they match",
                    at: setting.configurationID, in: context, subject: setting.path)
        }
    }

    /// The path as the disk spells it, when every component exists in some case and one differs
    /// from `path`'s; nil when something is really missing (or two names match in case only).
    /// On a case-insensitive disk the reference exists and this is never asked.
    static func onDisk(_ path: String, _ files: LintFiles) -> String? {
        func join(_ folder: String, _ name: String) -> String {
            folder.isEmpty ? name : folder == "/" ? "/" + name : folder + "/" + name
        }
        var current = path.hasPrefix("/") ? "/" : ""
        var differs = false
        for component in path.split(separator: "/").map(String.init) where component != "." {
            let exact = join(current, component)
            if component == ".." || files.exists(exact) {
                current = exact
                continue
            }
            let lowered = component.lowercased()
            guard let names = files.list(current) else { return nil }
            let matches = names.filter { $0.lowercased() == lowered }
            guard matches.count == 1, let match = matches.first else { return nil }
            current = join(current, match)
            differs = true
        }
        return differs ? current : nil
    }
}
