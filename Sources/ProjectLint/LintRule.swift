import PBXProj

/// How serious a lint finding is.
public enum LintSeverity: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Worth knowing; never fails a run.
    case note
    /// Should be fixed; fails a run only with `--fail-on warning`.
    case warning
    /// Must be fixed: exit status 1.
    case error

    private var rank: Int {
        switch self {
        case .note: return 0
        case .warning: return 1
        case .error: return 2
        }
    }

    public static func < (lhs: LintSeverity, rhs: LintSeverity) -> Bool { lhs.rank < rhs.rank }
}

/// An edit that removes a finding without changing what the project builds.
public enum LintFix: Sendable, Hashable {
    /// Remove the object (a dead build file, an orphaned object).
    case removeObject(ObjectID)
    /// Remove every occurrence of `element` after the first from the list `key` of `object`
    /// (or all of them when `keepFirst` is false).
    case removeFromList(object: ObjectID, key: String, element: ObjectID, keepFirst: Bool)
    /// Point every reference to `duplicate` at `original` instead, then remove `duplicate`.
    case mergeReference(duplicate: ObjectID, into: ObjectID)
    /// Sort a group's children the way Xcode's "Sort by Name" does.
    case sortChildren(group: ObjectID)
    /// Rewrite the whole file in Xcode's canonical form.
    case canonicalFormat
}

/// One problem a rule found.
public struct LintFinding: Sendable, Hashable {
    /// The rule's id.
    public var ruleID: String
    /// The severity after configuration.
    public var severity: LintSeverity
    /// What is wrong and what to do.
    public var message: String
    /// The file the finding is in (the project.pbxproj, a scheme, a folder).
    public var path: String
    /// The 1-based line, when the finding has one.
    public var line: Int?
    /// The 1-based column, when the finding has one.
    public var column: Int?
    /// The object concerned, if any.
    public var objectID: ObjectID?
    /// The safe fix, if there is one.
    public var fix: LintFix?
    /// The file on disk the finding is about (relative to the project's folder), which the
    /// configuration's `ignore` paths are matched against.
    public var subject: String?

    /// Creates a finding.
    public init(ruleID: String, severity: LintSeverity, message: String, path: String, line: Int? = nil,
                column: Int? = nil, objectID: ObjectID? = nil, fix: LintFix? = nil, subject: String? = nil) {
        self.ruleID = ruleID
        self.severity = severity
        self.message = message
        self.path = path
        self.line = line
        self.column = column
        self.objectID = objectID
        self.fix = fix
        self.subject = subject
    }
}

/// A project a rule is shown on, and the findings it must give there (checked by a test for
/// every rule, like a step's examples).
public struct LintExample: Sendable {
    /// What the example shows.
    public let title: String
    /// The project.pbxproj text.
    public let project: String
    /// Files that exist next to the project (relative to the folder holding the .xcodeproj).
    public let files: [String]
    /// The text of files the rule reads (schemes), by path.
    public let texts: [String: String]
    /// The findings, as `LINE: message` (`PATH:LINE: message` in another file than the project's), in order.
    public let expected: [String]

    /// An example over the whole text of a project file.
    public init(_ title: String, text: String, files: [String] = [], texts: [String: String] = [:], expected: [String]) {
        self.title = title
        self.project = text
        self.files = files
        self.texts = texts
        self.expected = expected
    }

    /// An example over a small project: `objects` (one per line, starting on line 8) come before
    /// the root object `ROOT`, the main group `MAIN` (children `mainChildren`), the project's
    /// configuration list `LIST` and its `Debug` configuration `DEBUG` (with `settings`).
    public init(_ title: String, objects: [String], mainChildren: [String] = [], targets: [String] = [],
                settings: String = "", files: [String] = [], texts: [String: String] = [:], expected: [String]) {
        let text = """
            // !$*UTF8*$!
            {
            \tarchiveVersion = 1;
            \tclasses = {
            \t};
            \tobjectVersion = 56;
            \tobjects = {
            \(objects.map { "\t\t" + $0 + "\n" }.joined())\
            \t\tROOT = {isa = PBXProject; buildConfigurationList = LIST; mainGroup = MAIN; targets = (\(targets.joined(separator: ", "))); };
            \t\tMAIN = {isa = PBXGroup; children = (\(mainChildren.joined(separator: ", "))); sourceTree = "<group>"; };
            \t\tLIST = {isa = XCConfigurationList; buildConfigurations = (DEBUG); };
            \t\tDEBUG = {isa = XCBuildConfiguration; buildSettings = {\(settings)}; name = Debug; };
            \t};
            \trootObject = ROOT;
            }

            """
        self.init(title, text: text, files: files, texts: texts, expected: expected)
    }
}

/// One lint check. Each rule is a small type in `Sources/ProjectLint/Rules`, registered in
/// `LintRegistry.all`.
public protocol LintRule: Sendable {
    /// The id used in configuration and output (`missing-file`).
    var id: String { get }
    /// One line saying what the rule finds.
    var summary: String { get }
    /// The severity when the configuration says nothing.
    var defaultSeverity: LintSeverity { get }
    /// Whether the rule runs only when the configuration enables it.
    var isOptIn: Bool { get }
    /// Whether `--fix` can remove its findings.
    var isFixable: Bool { get }
    /// Projects the rule is shown on, with the findings it gives.
    var examples: [LintExample] { get }
    /// The rule's findings (with the default severity; the engine applies the configuration).
    func check(_ context: LintContext) -> [LintFinding]
}

extension LintRule {
    public var isOptIn: Bool { false }
    public var isFixable: Bool { false }

    /// A finding of this rule at an object's place in the project file (the engine fills in the
    /// line and column of every such finding at once).
    public func finding(_ message: String, at id: ObjectID?, in context: LintContext, fix: LintFix? = nil,
                        subject: String? = nil) -> LintFinding {
        LintFinding(ruleID: self.id, severity: defaultSeverity, message: message, path: context.pbxprojPath,
                    objectID: id, fix: fix, subject: subject)
    }
}
