// libFuzzer entry point for the property-list reader (XML and binary).
//
// Compiled together with Sources/PropertyList/*.swift into one module (no `import PropertyList`)
// by `scripts/fuzz.sh plist`. Besides "no crash, no hang, no sanitizer report", each input checks
// the reader's promises, so that a broken promise is a crash the fuzzer reports:
// - what reads stays within the budget (values, bytes of strings and data, depth, counted with
//   every shared reference expanded);
// - reading the same bytes twice gives equal values;
// - a small budget is enforced too: what reads under it reads the same under the standard one;
// - what reads can be printed (Foundation traps formatting a date far outside years 1-9999).

import Foundation

private let small = PropertyListLimits(maxInputBytes: 1 << 20, maxObjects: 2_000, maxDepth: 16, maxExpandedBytes: 16_384)

@_cdecl("LLVMFuzzerTestOneInput")
public func propertyListFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for limits in [small, PropertyListLimits.standard] {
        let reader = PropertyListReader(limits: limits)
        guard let value = try? reader.read(bytes, file: "fuzz.plist") else { continue }
        var cost = Cost()
        cost.add(value, level: 0, limits: limits)
        if cost.objects > limits.maxObjects || cost.bytes > limits.maxExpandedBytes || cost.depth > limits.maxDepth {
            fatalError("fuzz: a value over budget was returned: \(cost) under \(limits)")
        }
        guard let again = try? reader.read(bytes, file: "fuzz.plist"), again == value else {
            fatalError("fuzz: the same bytes read twice differ")
        }
        if limits == small {
            if (try? PropertyListReader().read(bytes, file: "fuzz.plist")) != value {
                fatalError("fuzz: a larger budget reads the bytes differently")
            }
            _ = String(describing: value)  // dates Foundation cannot format trap here
        }
        _ = value.foundationObject
    }
    return 0
}

/// The expanded cost of a value, counted the way the budget counts it (keys are values too);
/// stops adding once it is over any limit, so a bug cannot make the check itself explode.
private struct Cost: CustomStringConvertible {
    var objects = 0
    var bytes = 0
    var depth = 0

    var description: String { "\(objects) values, \(bytes) bytes, \(depth) levels" }

    mutating func add(_ value: PropertyListValue, level: Int, limits: PropertyListLimits) {
        guard objects <= limits.maxObjects, bytes <= limits.maxExpandedBytes, depth <= limits.maxDepth else { return }
        objects += 1
        switch value {
        case .string(let text): bytes += text.utf8.count
        case .data(let data): bytes += data.count
        case .array(let values):
            depth = max(depth, level + 1)
            for element in values { add(element, level: level + 1, limits: limits) }
        case .dictionary(let values):
            depth = max(depth, level + 1)
            for (key, element) in values {
                objects += 1
                bytes += key.utf8.count
                add(element, level: level + 1, limits: limits)
            }
        default: break
        }
    }
}
