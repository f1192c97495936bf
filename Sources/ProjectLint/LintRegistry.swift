/// Every lint rule, in the order findings are reported.
public enum LintRegistry {
    /// The rules.
    public static let all: [any LintRule] = [
        MergeConflictRule(),
        DuplicateObjectIDRule(),
        MissingFileRule(),
        CaseMismatchRule(),
        UncheckedReferenceRule(),
        DuplicateReferenceRule(),
        DeadBuildFileRule(),
        SourceInNoTargetRule(),
        EmptyGroupRule(),
        OrphanedObjectRule(),
        AbsolutePathRule(),
        MissingSettingFileRule(),
        NonCanonicalFormatRule(),
        SchemeMissingTargetRule(),
        GroupFolderMismatchRule(),
        UnreferencedFileRule(),
        UnsortedChildrenRule(),
        ProjectSettingsRule(),
    ]

    /// The rule with `id`.
    public static func rule(_ id: String) -> (any LintRule)? {
        all.first { $0.id == id }
    }

    /// Every rule's id.
    public static var ids: [String] { all.map(\.id) }

    /// `docs/lint.md`: the rules as a Markdown table, then each rule's examples.
    public static func markdown() -> String {
        var text = """
            # `slipway xcodeproj lint` rules

            Generated from the rules' own descriptions (`slipway xcodeproj lint --rules --markdown`); a test
            checks that this file matches them. Configure rules in `.slipway/lint.yml`:

            ```yaml
            rules:
              empty-group: off            # or: note, warning, error
              unsorted-children: warning  # opt-in rules run only when given a severity
            ignore:
              - Pods/**
            ```

            Exit status: 0 (nothing at `--fail-on`, default `error`), 1 (findings at that severity or
            above), 2 (bad input: not a project, a bad configuration). `--json`, `--sarif FILE` (SARIF
            2.1.0 for GitHub code scanning) and, under GitHub Actions, annotations. `--fix` applies the
            fixes marked below as minimal edits (`--dry-run` prints them and writes nothing), linting
            the result again and fixing what one fix leaves for another (merging a duplicate reference
            can leave two build files of one file in a phase), so one `--fix` leaves nothing to fix.

            Give lint the `.xcodeproj` (or the `project.pbxproj` inside it): the folder that holds the
            `.xcodeproj` is where references resolve, and its name is the project's. A `project.pbxproj`
            copied elsewhere is refused (exit 2) rather than checked against the wrong folder.

            What lint does not check for existence, it says once per reason (`unchecked-reference`, a
            note) instead of reporting each file missing: files under `Pods/` before `pod install`, under
            `Carthage/Build/` or `DerivedSources/`, paths under a build folder (`$(DERIVED_FILE_DIR)/...`),
            and paths holding a build setting. Targets' products (source tree `BUILT_PRODUCTS_DIR`) are
            the build's output and are neither checked nor noted. Settings Slipway knows are
            resolved and the path checked: `SRCROOT`, `PROJECT_DIR`, `SOURCE_ROOT` (the project's folder),
            `PROJECT_NAME`, and the project's own settings that have one value in every configuration;
            each other setting gives one note with the count of its references, e.g.
            "2 references under 'Pods/' are made by `pod install`: not checked". A file under `Pods/` that
            is on disk is checked like any other.

            On a checked-out tree, three cases are not errors. A missing file that git ignores (a build's
            output, such as a script's generated `.xcconfig` or Info.plist) is one note, whether a file
            reference or a build setting (`INFOPLIST_FILE`, ...) names it: `missing-file` and
            `missing-setting-file` decide through the same check, and a file named both ways counts once.
            Files inside a git submodule that is not checked out (`.gitmodules` lists its path, and the
            folder is missing or empty) are one note per submodule, which says to run
            `git submodule update --init`; once it is checked out, its missing files are errors again.
            Files inside a synchronized folder (Xcode 16's `PBXFileSystemSynchronizedRootGroup`), at any
            depth and whatever its exception sets say, are in the project: `unreferenced-file` and
            `source-in-no-target` never report them, even where a group's folder lies inside one.

            Speed (`slipway-bench lint`, release build): the largest corpus project (DuckDuckGo-macOS,
            1.47 MB, 3,864 tree paths) lints in 41–43 ms with the default rules and 45–49 ms with every
            rule, reading the project and building the listing of its tree included (32 ms when a
            long-lived process keeps the listing). With the tree as files on disk, scanned in each run as
            the command does, the default rules take 48–50 ms: one scan of the folder (kinds from
            `readdir`, no `lstat` per file) answers both the sync rules and every file-exists check. The
            group tree, sync plan and line index are built once per run.

            In a lane, the `lint` step is the same check as a CI gate:

            ```yaml
            steps:
              - lint: { project: App.xcodeproj, fail-on: warning, sarif: build/lint.sarif }
            ```

            | Rule | Default | Fix | Finds |
            | --- | --- | --- | --- |

            """
        for rule in all {
            let severity = rule.isOptIn ? "off (opt-in)" : rule.defaultSeverity.rawValue
            text += "| `\(rule.id)` | \(severity) | \(rule.isFixable ? "yes" : "") | \(rule.summary) |\n"
        }
        for rule in all {
            text += "\n## `\(rule.id)`\n\n\(rule.summary)\n"
            for example in rule.examples {
                text += "\n- Example, \(example.title):\n"
                for line in example.expected { text += "  - `\(line)`\n" }
            }
        }
        return text
    }
}
