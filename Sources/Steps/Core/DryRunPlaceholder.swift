/// In a dry run, an expression that reads an earlier step's outputs (`${{ steps.export.outputs.path }}`)
/// has no value yet: the runner puts `<steps.export.outputs.path>` there. A step's plan and its
/// read-only checks must not take that text for a value (a path that does not exist, a team id of
/// the wrong shape): they say what they will do with the value once the earlier step has run.
public enum DryRunPlaceholder {
    /// The stand-in a dry run puts where `reference` (e.g. `steps.export.outputs.path`) has no value yet.
    public static func text(for reference: String) -> String { "<\(reference)>" }

    /// The first placeholder in `text` (e.g. `steps.export.outputs.path`), or nil.
    public static func reference(in text: String) -> String? {
        guard let start = text.range(of: "<steps.") else { return nil }
        guard let end = text[start.upperBound...].firstIndex(of: ">") else { return nil }
        let inside = text[start.lowerBound..<end].dropFirst()
        guard inside.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }) else { return nil }
        return String(inside)
    }

    /// True when `text` holds a dry run's stand-in for an earlier step's output.
    public static func contains(_ text: String) -> Bool { reference(in: text) != nil }

    /// True when `text` is nothing but such a stand-in.
    public static func isWhole(_ text: String) -> Bool { reference(in: text).map { text == self.text(for: $0) } ?? false }
}
