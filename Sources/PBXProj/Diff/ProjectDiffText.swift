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
        var lines: [String] = []
        func heading(_ text: String, indent: String = "") { lines.append(indent + paint(text, .heading)) }
        func line(_ mark: DiffMark, _ text: String, indent: String = "  ") {
            lines.append(indent + paint(mark.symbol + " " + text, mark))
        }
        if targets != Targets() {
            heading("Targets:")
            for name in targets.added { line(.added, name) }
            for name in targets.removed { line(.removed, name) }
            for move in targets.renamed { line(.changed, "\(move.from) → \(move.to) (renamed)") }
        }
        if !buildPhases.isEmpty {
            heading("Build phases:")
            for phase in buildPhases {
                heading("\(phase.target) › \(phase.phase)\(phase.change == "changed" ? "" : " (\(phase.change))"):", indent: "  ")
                for file in phase.filesAdded { line(.added, file, indent: "    ") }
                for file in phase.filesRemoved { line(.removed, file, indent: "    ") }
            }
        }
        for (title, elements) in [("Groups:", groups), ("Files:", files)] where elements != Elements() {
            heading(title)
            for path in elements.added { line(.added, path) }
            for path in elements.removed { line(.removed, path) }
            for move in elements.renamed { line(.changed, "\(move.from) → \(move.to) (renamed)") }
            for move in elements.moved { line(.moved, "\(move.from) → \(move.to) (moved)") }
        }
        if !buildSettings.isEmpty {
            heading("Build settings:")
            for change in buildSettings {
                let suffix = change.change == "changed" ? "" : " (configuration \(change.change))"
                heading("\(change.target ?? "project") › \(change.configuration)\(suffix):", indent: "  ")
                if let base = change.baseConfiguration {
                    line(.changed, "based on: \(base.old) → \(base.new)", indent: "    ")
                }
                for key in change.added.keys.sorted() { line(.added, "\(key) = \(change.added[key] ?? "")", indent: "    ") }
                for key in change.removed.keys.sorted() { line(.removed, "\(key) = \(change.removed[key] ?? "")", indent: "    ") }
                for key in change.changed.keys.sorted() {
                    guard let value = change.changed[key] else { continue }
                    line(.changed, "\(key): \(value.old) → \(value.new)", indent: "    ")
                }
            }
        }
        if packages != Packages() {
            heading("Swift packages:")
            func describe(_ package: Package) -> String {
                package.requirement.isEmpty ? package.location : "\(package.location) (\(package.requirement))"
            }
            for package in packages.added { line(.added, describe(package)) }
            for package in packages.removed { line(.removed, describe(package)) }
            for location in packages.changed.keys.sorted() {
                guard let value = packages.changed[location] else { continue }
                line(.changed, "\(location): \(value.old) → \(value.new)")
            }
        }
        return lines.map { $0 + "\n" }.joined()
    }
}

extension ProjectSnapshot {
    /// The project as stable, line-oriented text with one fact per line (for `git diff`'s
    /// textconv): packages, the group tree in order, targets with their phases' files, and build
    /// settings sorted by key. Formatting, object ids and object order do not show.
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
        for target in targets {
            lines.append("target \(target.name)  \(target.kind)")
            for phase in target.phases {
                lines.append("phase \(target.name) › \(phase.label)")
                for item in phase.items {
                    switch item {
                    case .file(let id): lines.append("phase \(target.name) › \(phase.label): \(element(id)?.treePath ?? id.rawValue)")
                    case .product(let name): lines.append("phase \(target.name) › \(phase.label): package product \(name)")
                    }
                }
            }
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
}
