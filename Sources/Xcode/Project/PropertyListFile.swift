import Basics
import Foundation
import PropertyList

/// Reads a property list file (XML or binary) into a dictionary, naming the file on failure.
/// The file may come from an untrusted checkout, so it is read by `PropertyListReader` within
/// `PropertyListLimits.standard`, and its size is checked before it is read.
enum PropertyListFile {
    static func dictionary(at path: String, fileSystem: FileSystem) throws -> [String: Any] {
        let limits = PropertyListLimits.standard
        if let size = fileSystem.status(of: path)?.details?.size, size > limits.maxInputBytes {
            let limit = PropertyListError.Limit.inputBytes(size: Int(clamping: size), limit: limits.maxInputBytes)
            throw XcodeProjectError.malformedPropertyList(path: path, reason: PropertyListError.overBudget(file: path, limit: limit).reason)
        }
        let bytes = try fileSystem.read(path, limit: limits.maxInputBytes)
        let value: PropertyListValue
        do {
            value = try PropertyListReader(limits: limits).read(bytes, file: path)
        } catch let error as PropertyListError {
            throw XcodeProjectError.malformedPropertyList(path: path, reason: error.reason)
        }
        guard let dictionary = value.foundationObject as? [String: Any] else {
            throw XcodeProjectError.malformedPropertyList(path: path, reason: "its root is not a dictionary")
        }
        return dictionary
    }
}
