import Foundation

/// JSON as Slipway writes it for machines: sorted keys (minimal diffs, stable output),
/// no escaped slashes.
public enum JSONFormatting {
    /// An encoder with Slipway's settings; `pretty` for files people read and diff.
    public static func encoder(pretty: Bool = true) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty
            ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// One value as a single JSON line (NDJSON).
    public static func line<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try encoder(pretty: false).encode(value), as: UTF8.self)
    }

    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped,
    /// everything else as it is (for JSON written by hand, in a fixed key order).
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
