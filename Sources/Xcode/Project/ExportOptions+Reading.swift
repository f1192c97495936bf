import Basics
import Foundation

extension ExportOptions {
    /// Reads an `ExportOptions.plist` a lane gives, to check it before the export runs.
    /// A missing `method` is Xcode's default, `debugging`. `notes` holds the deprecation note
    /// of an old method name.
    ///
    /// - Throws: `FileSystemError` when it cannot be read, `XcodeProjectError.malformedPropertyList`
    ///   when it does not parse, `XcodeProjectError.invalidExportOptions` naming the file and
    ///   every wrong value.
    public static func read(path: String, fileSystem: FileSystem) throws -> (options: ExportOptions, notes: [String]) {
        let plist = try PropertyListFile.dictionary(at: path, fileSystem: fileSystem)
        var problems: [String] = []
        var notes: [String] = []
        var options = ExportOptions(method: .debugging)
        func text(_ key: String) -> String? {
            guard let value = plist[key] else { return nil }
            if let string = value as? String { return string }
            problems.append("'\(key)' is not a string")
            return nil
        }
        func flag(_ key: String) -> Bool? {
            guard let value = plist[key] else { return nil }
            if let bool = value as? Bool { return bool }
            problems.append("'\(key)' is not a boolean (<true/> or <false/>)")
            return nil
        }
        func choice<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type) -> T? where T.RawValue == String {
            guard let raw = text(key) else { return nil }
            if let value = T(rawValue: raw) { return value }
            problems.append("'\(key)' is '\(raw)', not one of " + T.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", "))
            return nil
        }
        if let name = text("method") {
            if let method = try? ExportMethod(parsing: name) {
                options.method = method
                if let note = ExportMethod.deprecationNote(for: name) { notes.append(note) }
            } else {
                problems.append(String((XcodeProjectError.unknownExportMethod(name: name).errorDescription ?? name).dropLast()))
            }
        }
        options.teamID = text("teamID")
        options.signingStyle = choice("signingStyle", SigningStyle.self)
        options.signingCertificate = text("signingCertificate")
        options.manageAppVersionAndBuildNumber = flag("manageAppVersionAndBuildNumber")
        options.uploadSymbols = flag("uploadSymbols")
        options.destination = choice("destination", Destination.self)
        options.stripSwiftSymbols = flag("stripSwiftSymbols")
        options.thinning = text("thinning")
        options.iCloudContainerEnvironment = choice("iCloudContainerEnvironment", ICloudEnvironment.self)
        if let profiles = plist["provisioningProfiles"] {
            if let profiles = profiles as? [String: String] {
                options.provisioningProfiles = profiles
            } else {
                problems.append("'provisioningProfiles' is not a dictionary of bundle id to profile name")
            }
        }
        problems += options.problems
        if !problems.isEmpty { throw XcodeProjectError.invalidExportOptions(path: path, problems: problems) }
        return (options, notes)
    }
}
