import Foundation

/// How push and pull results read: lines for people, JSON (sorted keys) for scripts.
public enum ListingReport {
    /// The push's lines: a heading, one line per text sent (`+` new, `~` changed, with lengths),
    /// the unchanged counts and every file not sent.
    public static func lines(_ result: ListingPushResult, platform: String) -> [String] {
        let verb = result.dryRun ? "would send" : "sent"
        let created = result.versionCreated ? (result.dryRun ? ", to be created" : ", created") : result.live ? ", on the App Store" : ""
        var lines = ["App Store version \(result.versionString) (\(platform)\(created)): \(verb) \(count(result.changes.count, "text"))"
            + (result.dryRun ? " (dry run: nothing was sent)" : "")]
        for change in result.changes {
            let mark = change.kind == .new ? "+" : "~"
            let length = change.kind == .new ? "\(change.after) characters" : "\(change.before) → \(change.after) characters"
            lines.append("  \(mark) \(change.locale ?? "copyright")\(change.field.map { " \($0.rawValue)" } ?? "") (\(length))")
        }
        lines.append("unchanged: \(count(result.unchangedLocales.count, "locale")), \(count(result.unchangedTexts, "text"))")
        lines += result.unsent.map(\.description)
        return lines
    }

    /// The pull's lines: a heading and one line per file written.
    public static func lines(_ result: ListingPullResult, platform: String) -> [String] {
        let verb = result.dryRun ? "would write" : "wrote"
        var lines = ["App Store version \(result.versionString) (\(platform), \(result.versionState)): \(count(result.locales.count, "locale")); "
            + "\(verb) \(count(result.written.count, "file"))" + (result.dryRun ? " (dry run: nothing was written)" : "")]
        lines += result.written.map { "  \(verb) \($0)" }
        return lines
    }

    /// The push as JSON.
    public static func json(_ result: ListingPushResult) -> String {
        let changes: [[String: Any]] = result.changes.map { change in
            var item: [String: Any] = ["kind": change.kind.rawValue, "before": change.before, "after": change.after]
            item["locale"] = change.locale ?? NSNull()
            item["field"] = change.field?.rawValue ?? "copyright"
            return item
        }
        return encode(["version": result.versionString, "versionId": result.versionID, "versionCreated": result.versionCreated,
                       "dryRun": result.dryRun, "changes": changes, "unchangedLocales": result.unchangedLocales,
                       "unchangedTexts": result.unchangedTexts,
                       "notSent": result.unsent.map { ["path": $0.path, "reason": $0.reason] }])
    }

    /// The pull as JSON.
    public static func json(_ result: ListingPullResult) -> String {
        var object: [String: Any] = ["version": result.versionString, "versionId": result.versionID, "state": result.versionState,
                                     "dryRun": result.dryRun, "locales": result.locales, "written": result.written]
        if !result.ignoredLocales.isEmpty { object["ignoredLocales"] = result.ignoredLocales }
        return encode(object)
    }

    static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    static func encode(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
