/// UTF-8 validation over raw bytes, eight ASCII bytes at a time.
enum UTF8Validation {
    /// The offset of the first byte that does not belong to a valid UTF-8 sequence, or nil.
    static func firstInvalidOffset(in bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            let count = buffer.count
            var i = 0
            while i < count {
                if i + 8 <= count {
                    let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                    if word & 0x8080_8080_8080_8080 == 0 {
                        i += 8
                        continue
                    }
                }
                let byte = buffer[i]
                if byte < 0x80 {
                    i += 1
                    continue
                }
                guard let length = sequenceLength(buffer, at: i) else { return i }
                i += length
            }
            return nil
        }
    }

    /// The length of the valid multi-byte sequence at `i`, or nil when it is invalid
    /// (overlong forms, surrogates and values above U+10FFFF are invalid).
    private static func sequenceLength(_ buffer: UnsafeBufferPointer<UInt8>, at i: Int) -> Int? {
        let lead = buffer[i]
        let length: Int
        var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: return nil
        }
        guard i + length <= buffer.count else { return nil }
        let second = buffer[i + 1]
        guard second >= lower && second <= upper else { return nil }
        for k in 2..<length where buffer[i + k] & 0xC0 != 0x80 {
            return nil
        }
        return length
    }
}
