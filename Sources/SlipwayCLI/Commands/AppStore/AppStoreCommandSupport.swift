import AppleAPI
import ArgumentParser
import Basics
import Foundation

/// What the commands that call App Store Connect with a key (`devices`, `testflight`) share
/// besides opening the key (`AppStoreKeyOptions.open`): their output.
enum AppStoreCommandSupport {
    /// Pretty JSON with sorted keys.
    static func json(_ value: Any) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// Columns padded to their widest cell, two spaces apart.
    static func table(header: [String], rows: [[String]]) -> String {
        // Cells hold names a server or a devices file gave: control characters shown escaped.
        let all = [header] + rows.map { $0.map(\.displaySafe) }
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
