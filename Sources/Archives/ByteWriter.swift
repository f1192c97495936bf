import Foundation

/// Appends integers in a fixed byte order (zip and gzip are little-endian, signify big-endian).
/// `package`: Publish writes signify keys with it.
package struct ByteWriter {
    package init() {}

    package private(set) var bytes: [UInt8] = []

    package mutating func uint16LE(_ value: UInt16) {
        bytes += [UInt8(value & 0xFF), UInt8(value >> 8)]
    }

    package mutating func uint32LE(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8((value >> UInt32(shift)) & 0xFF)) }
    }

    package mutating func uint32BE(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8((value >> UInt32(shift)) & 0xFF)) }
    }

    package mutating func append(_ other: [UInt8]) { bytes += other }
    package mutating func append(_ text: String) { bytes += Array(text.utf8) }
}
