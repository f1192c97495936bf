/// How a line of a printed difference is marked, so a caller can colour it.
public enum DiffMark: Sendable, Hashable {
    /// Something new (`+`).
    case added
    /// Something gone (`-`).
    case removed
    /// A value or name that changed (`~`).
    case changed
    /// A member under another parent (`>`).
    case moved
    /// A heading.
    case heading

    /// The mark's symbol at the start of a line.
    public var symbol: String {
        switch self {
        case .added: return "+"
        case .removed: return "-"
        case .changed: return "~"
        case .moved: return ">"
        case .heading: return ""
        }
    }
}

extension ProjectDiff {
    /// The difference for people: one section per kind of change, each line marked `+`, `-`,
    /// `~` or `>`, in a stable order; `paint` colours a line by its mark (identity by default).
    public func humanText(paint: (String, DiffMark) -> String = { text, _ in text }) -> String {
        withoutActuallyEscaping(paint) { paint in painted(with: paint) }
    }

    private func painted(with paint: @escaping (String, DiffMark) -> String) -> String {
        var printer = DiffPrinter(paint: paint)
        if targets != Targets() { printer.targets(targets) }
        if !buildPhases.isEmpty {
            printer.heading("Build phases:")
            for phase in buildPhases {
                printer.heading("\(phase.target) › \(phase.phase)\(phase.change == "changed" ? "" : " (\(phase.change))"):", indent: "  ")
                printer.list(ListChange(added: phase.filesAdded, removed: phase.filesRemoved), indent: "    ")
                printer.values(phase.details, indent: "    ")
            }
        }
        for (title, elements) in [("Groups:", groups), ("Files:", files)] where elements != Elements() {
            printer.heading(title)
            printer.list(ListChange(added: elements.added, removed: elements.removed))
            for move in elements.renamed { printer.line(DiffMark.changed, "\(move.from) → \(move.to) (renamed)") }
            for move in elements.moved { printer.line(DiffMark.moved, "\(move.from) → \(move.to) (moved)") }
        }
        if !synchronizedFolders.isEmpty {
            printer.heading("Synchronized folders:")
            for change in synchronizedFolders {
                printer.heading("\(change.folder) › exceptions for \(change.target)\(change.phase.map { " › " + $0 } ?? ""):", indent: "  ")
                printer.list(ListChange(added: change.added, removed: change.removed), indent: "    ")
            }
        }
        if !buildSettings.isEmpty { printer.settings(buildSettings) }
        if packages != Packages() { printer.packages(packages) }
        return printer.lines.map { $0 + "\n" }.joined()
    }
}

/// Builds `ProjectDiff.humanText`'s lines.
private struct DiffPrinter {
    let paint: (String, DiffMark) -> String
    var lines: [String] = []

    mutating func heading(_ text: String, indent: String = "") { lines.append(indent + paint(text, .heading)) }

    mutating func line(_ mark: DiffMark, _ text: String, indent: String = "  ") {
        lines.append(indent + paint(mark.symbol + " " + text, mark))
    }

    /// `+` lines, then `-` lines, each text after `label: ` when a label is given.
    mutating func list(_ change: ProjectDiff.ListChange, label: String = "", indent: String = "  ") {
        let prefix = label.isEmpty ? "" : label + ": "
        for item in change.added { line(.added, prefix + item, indent: indent) }
        for item in change.removed { line(.removed, prefix + item, indent: indent) }
    }

    /// `~ KEY: old → new` lines in key order.
    mutating func values(_ changes: [String: ProjectDiff.ValueChange], indent: String) {
        for key in changes.keys.sorted() {
            guard let value = changes[key] else { continue }
            line(.changed, "\(key): \(value.old) → \(value.new)", indent: indent)
        }
    }

    mutating func targets(_ targets: ProjectDiff.Targets) {
        heading("Targets:")
        list(ProjectDiff.ListChange(added: targets.added, removed: targets.removed))
        for move in targets.renamed { line(.changed, "\(move.from) → \(move.to) (renamed)") }
        for change in targets.changed {
            heading("\(change.target):", indent: "  ")
            values(["product type": change.productType, "product name": change.productName, "build phase order": change.phaseOrder]
                .compactMapValues { $0 }, indent: "    ")
            list(change.dependencies, label: "dependency", indent: "    ")
            list(change.packageProducts, label: "package product", indent: "    ")
            list(change.synchronizedFolders, label: "synchronized folder", indent: "    ")
            list(change.buildRules, label: "build rule", indent: "    ")
        }
    }

    mutating func settings(_ changes: [ProjectDiff.SettingsChange]) {
        heading("Build settings:")
        for change in changes {
            let suffix = change.change == "changed" ? "" : " (configuration \(change.change))"
            heading("\(change.target ?? "project") › \(change.configuration)\(suffix):", indent: "  ")
            if let base = change.baseConfiguration {
                line(.changed, "based on: \(base.old) → \(base.new)", indent: "    ")
            }
            for key in change.added.keys.sorted() { line(.added, "\(key) = \(change.added[key] ?? "")", indent: "    ") }
            for key in change.removed.keys.sorted() { line(.removed, "\(key) = \(change.removed[key] ?? "")", indent: "    ") }
            values(change.changed, indent: "    ")
        }
    }

    mutating func packages(_ packages: ProjectDiff.Packages) {
        heading("Swift packages:")
        func describe(_ package: ProjectDiff.Package) -> String {
            package.requirement.isEmpty ? package.location : "\(package.location) (\(package.requirement))"
        }
        for package in packages.added { line(.added, describe(package)) }
        for package in packages.removed { line(.removed, describe(package)) }
        values(packages.changed, indent: "  ")
    }
}

extension ProjectSnapshot {
    /// The project as stable, line-oriented text with one fact per line (for `git diff`'s
    /// textconv): packages, the group tree in order, targets with their dependencies, products,
    /// synchronized folders, rules and phases (attributes, files), synchronized folders'
    /// exceptions, and build settings sorted by key. Formatting, object ids and object order do not show.
    public func semanticText() -> String {
        // No project name: git hands textconv a temporary file for one side, named otherwise.
        var lines = ["# project.pbxproj as semantic text (slipway xcodeproj diff --textconv)"]
        for package in packages {
            lines.append("package \(package.location)" + (package.requirement.isEmpty ? "" : "  \(package.requirement)"))
        }
        for element in elements {
            let where_ = element.location == element.treePath ? "" : "  @ \(element.location)"
            lines.append((element.isGroup ? "group \(element.treePath)/" : "file \(element.treePath)") + where_)
        }
        let names = TargetMatching(old: self, new: self, pairs: [])
        for target in targets { lines += targetLines(target, names: names) }
        for set in exceptionSets {
            let owner = (set.target.map(names.name) ?? "no target") + (set.phase.map { " › " + $0 } ?? "")
            let folder = element(set.folder)?.treePath ?? set.folder.rawValue
            lines += set.entries.map { "exception \(folder) › \(owner): \($0)" }
        }
        func settings(_ owner: String, _ configurations: [Configuration]) {
            for configuration in configurations {
                lines.append("configuration \(owner) › \(configuration.name)"
                    + (configuration.baseConfiguration.map { "  based on \($0)" } ?? ""))
                for key in configuration.settings.keys.sorted() {
                    lines.append("setting \(owner) › \(configuration.name): \(key) = \(configuration.settings[key] ?? "")")
                }
            }
        }
        settings("project", projectConfigurations)
        for target in targets { settings("target \(target.name)", target.configurations) }
        return lines.map { $0 + "\n" }.joined()
    }

    /// A target's lines: kind, product, dependencies, products, folders, rules, then its phases.
    private func targetLines(_ target: Target, names: TargetMatching) -> [String] {
        var lines = ["target \(target.name)  \(target.kind)"]
        if let product = target.productName { lines.append("product name \(target.name): \(product)") }
        lines += target.dependencies.map { "dependency \(target.name): \(names.describe($0))" }
        lines += target.packageProducts.map { "package product \(target.name): \($0)" }
        lines += target.synchronizedFolders.map { "synchronized folder \(target.name): \(element($0)?.treePath ?? $0.rawValue)" }
        lines += target.buildRules.map { "build rule \(target.name): \($0)" }
        for phase in target.phases {
            lines.append("phase \(target.name) › \(phase.label)")
            for key in phase.details.keys.sorted() {
                lines.append("phase \(target.name) › \(phase.label)  \(key) = \(phase.details[key] ?? "")")
            }
            for item in phase.items {
                switch item {
                case .file(let id):
                    lines.append("phase \(target.name) › \(phase.label): \(element(id)?.treePath ?? id.rawValue)"
                        + (phase.fileSettings[id].map { "  settings \($0)" } ?? ""))
                case .product(let name): lines.append("phase \(target.name) › \(phase.label): package product \(name)")
                }
            }
        }
        return lines
    }
}
