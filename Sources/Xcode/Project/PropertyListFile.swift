import Basics
import Foundation

/// Reads a property list file (XML or binary) into a dictionary, naming the file on failure.
enum PropertyListFile {
    static func dictionary(at path: String, fileSystem: FileSystem) throws -> [String: Any] {
        let bytes = try fileSystem.read(path)
        let value: Any
        do {
            value = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            throw XcodeProjectError.malformedPropertyList(path: path, reason: "it does not parse")
        }
        guard let dictionary = value as? [String: Any] else {
            throw XcodeProjectError.malformedPropertyList(path: path, reason: "its root is not a dictionary")
        }
        return dictionary
    }
}
