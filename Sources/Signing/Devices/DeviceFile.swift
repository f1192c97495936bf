import Basics
import Foundation

/// The devices file of Apple's developer portal and fastlane's register_devices: tab-separated,
/// the header `Device ID<TAB>Device Name` with an optional third column `Device Platform`
/// (`ios` or `mac`), then one device per line. Blank lines and lines starting with `#` are
/// skipped (as register_devices does).
public enum DeviceFile {
    /// The largest file read (a devices file holds at most a few hundred lines).
    public static let maximumBytes = 1 << 20

    /// Reads and checks the file at `path`, shown as `display`; every line is checked before any
    /// device is returned.
    /// - Parameter defaultPlatform: the platform of lines without a platform column.
    /// - Throws: `DeviceInputError.unreadable`, `.tooLarge`, or `.invalidFile` with every problem.
    public static func load(_ path: String, display: String, defaultPlatform: String, fileSystem: any FileSystem) throws -> [DeviceEntry] {
        guard let status = fileSystem.status(of: path), status.kind == .file else {
            throw DeviceInputError.unreadable(file: display, reason: fileSystem.kind(of: path) == nil ? "there is no such file" : "it is not a file")
        }
        if let size = status.details?.size, size > maximumBytes {
            throw DeviceInputError.tooLarge(file: display, limit: maximumBytes)
        }
        let bytes: [UInt8]
        do { bytes = try fileSystem.read(path, limit: maximumBytes) } catch FileSystemError.tooLarge {
            throw DeviceInputError.tooLarge(file: display, limit: maximumBytes)
        } catch { throw DeviceInputError.unreadable(file: display, reason: errorText(error)) }
        guard bytes.count <= maximumBytes else { throw DeviceInputError.tooLarge(file: display, limit: maximumBytes) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw DeviceInputError.invalidFile(file: display, problems: ["\(display): the file is not UTF-8 text; save it as UTF-8"])
        }
        return try parse(text, file: display, defaultPlatform: defaultPlatform)
    }

    /// The header's columns.
    static let columns = ["Device ID", "Device Name", "Device Platform"]

    /// Checks `text` line by line; see `load`.
    public static func parse(_ text: String, file: String, defaultPlatform: String) throws -> [DeviceEntry] {
        var problems: [String] = [], entries: [DeviceEntry] = [], seen: [String: Int] = [:], sawHeader = false
        let lines = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        for (index, raw) in lines.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            let number = index + 1, place = "\(file):\(number)"
            let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : String(raw)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            if !sawHeader {
                sawHeader = true
                if cells == Array(columns.prefix(2)) || cells == columns { continue }
                problems.append("\(place): the first line must be the header 'Device ID<TAB>Device Name' (optionally followed by "
                    + "'<TAB>Device Platform'), as in Apple's sample file; add it above the devices")
            }
            if cells.count == 1 {
                problems.append("\(place): no tab between the columns; separate the UDID, the name and the optional platform with tabs, "
                    + "not spaces")
                continue
            }
            guard cells.count <= 3 else {
                problems.append("\(place): \(cells.count) columns; a line has the UDID, the name and optionally the platform (ios or mac)")
                continue
            }
            var platform = defaultPlatform
            if cells.count == 3, !cells[2].isEmpty {
                guard let given = DeviceEntry.platform(cells[2]) else {
                    problems.append("\(place): the platform '\(cells[2])' is not ios or mac")
                    continue
                }
                platform = given
            }
            let entry = DeviceEntry(udid: cells[0], name: cells[1], platform: platform, location: place)
            var bad = false
            for problem in [DeviceEntry.problem(udid: entry.udid, platform: platform), DeviceEntry.problem(name: entry.name)]
            where problem != nil {
                problems.append("\(place): \(problem ?? "")")
                bad = true
            }
            if !bad, let first = seen[entry.key] {
                problems.append("\(place): the UDID '\(entry.udid)' is listed already on line \(first); keep one line per device")
                bad = true
            }
            if !bad {
                seen[entry.key] = number
                entries.append(entry)
            }
        }
        if !sawHeader && problems.isEmpty {
            problems.append("\(file): no devices: the file has no header and no device lines; see Apple's sample file")
        }
        guard problems.isEmpty else { throw DeviceInputError.invalidFile(file: file, problems: problems) }
        return entries
    }
}
