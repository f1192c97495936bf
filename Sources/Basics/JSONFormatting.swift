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
}
