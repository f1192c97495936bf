import Basics
import Foundation

/// One tester to add: email, names, and the beta groups by name.
public struct BetaTesterEntry: Sendable, Hashable {
    /// The email address the invitation goes to.
    public var email: String
    /// First name (may be empty).
    public var firstName: String
    /// Last name (may be empty).
    public var lastName: String
    /// The groups, by name.
    public var groups: [String]
    /// `file:line` for an imported row, nil for one given with options.
    public var location: String?

    /// Creates an entry.
    public init(email: String, firstName: String = "", lastName: String = "", groups: [String], location: String? = nil) {
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.groups = groups
        self.location = location
    }

    /// Why `email` is not an email address TestFlight can invite, or nil.
    public static func problem(email: String) -> String? {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        let valid = parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".")
            && !email.contains(where: { $0.isWhitespace || $0.isNewline }) && email.count <= 254
        return valid ? nil : "'\(email)' is not an email address; give the tester's email (name@example.com)"
    }
}

/// pilot's testers CSV (fastlane's `pilot import`): `first name,last name,email[,group;group]`, one
/// tester per row, no header needed (a first row whose third cell is `email` is taken as one and
/// skipped). Quoted cells ("Smith, Jr.") follow RFC 4180. Blank rows are skipped.
public enum BetaTesterFile {
    /// The largest file read.
    public static let maximumBytes = 1 << 20

    /// Reads and checks the file at `path` (shown as `display`); every row is checked before
    /// anything is returned.
    /// - Parameter defaultGroups: the groups of rows without a groups cell (`--group`).
    /// - Throws: `BetaTesterInputError`.
    public static func load(_ path: String, display: String, defaultGroups: [String], fileSystem: any FileSystem) throws
        -> [BetaTesterEntry] {
        guard let status = fileSystem.status(of: path), status.kind == .file else {
            throw BetaTesterInputError.unreadable(file: display, reason: fileSystem.kind(of: path) == nil ? "there is no such file" : "it is not a file")
        }
        if let size = status.details?.size, size > maximumBytes { throw BetaTesterInputError.tooLarge(file: display, limit: maximumBytes) }
        let bytes: [UInt8]
        do { bytes = try fileSystem.read(path) } catch { throw BetaTesterInputError.unreadable(file: display, reason: errorText(error)) }
        guard bytes.count <= maximumBytes else { throw BetaTesterInputError.tooLarge(file: display, limit: maximumBytes) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw BetaTesterInputError.invalidFile(file: display, problems: ["\(display): the file is not UTF-8 text; save it as UTF-8"])
        }
        return try parse(text, file: display, defaultGroups: defaultGroups)
    }

    /// Checks `text`; see `load`.
    public static func parse(_ text: String, file: String, defaultGroups: [String]) throws -> [BetaTesterEntry] {
        var problems: [String] = [], entries: [BetaTesterEntry] = [], seen: [String: Int] = [:]
        let (rows, unclosed) = records(text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text)
        for (index, row) in rows.enumerated() {
            let place = "\(file):\(row.line)"
            let cells = row.cells.map { $0.trimmingCharacters(in: .whitespaces) }
            if cells.allSatisfy(\.isEmpty) { continue }
            if index == 0, cells.count >= 3, cells[2].lowercased() == "email" { continue }
            guard cells.count >= 3, !cells[2].isEmpty else {
                problems.append("\(place): no email; a row is first name, last name, email and optionally the groups separated by ';' "
                    + "(pilot's format)")
                continue
            }
            guard cells.count <= 4 else {
                problems.append("\(place): \(cells.count) columns; a row is first name, last name, email and optionally the groups "
                    + "separated by ';' (quote a cell that has a comma)")
                continue
            }
            if let problem = BetaTesterEntry.problem(email: cells[2]) {
                problems.append("\(place): \(problem)")
                continue
            }
            let listed = cells.count == 4 ? cells[3].split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } : []
            let groups = listed.isEmpty ? defaultGroups : listed
            if groups.isEmpty {
                problems.append("\(place): no beta group for '\(cells[2])'; add the groups as the fourth column or give --group")
                continue
            }
            if let first = seen[cells[2].lowercased()] {
                problems.append("\(place): '\(cells[2])' is listed already on line \(first); keep one row per tester")
                continue
            }
            seen[cells[2].lowercased()] = row.line
            entries.append(BetaTesterEntry(email: cells[2], firstName: cells[0], lastName: cells[1], groups: groups, location: place))
        }
        if let unclosed { problems.append("\(file):\(unclosed): a quoted cell is never closed; add the closing '\"'") }
        guard problems.isEmpty else { throw BetaTesterInputError.invalidFile(file: file, problems: problems) }
        guard !entries.isEmpty else {
            throw BetaTesterInputError.invalidFile(file: file, problems: ["\(file): no testers; a row is first name, last name, email[, groups]"])
        }
        return entries
    }

    /// RFC 4180 records with the line each starts on, and the line of a quote never closed.
    static func records(_ text: String) -> (rows: [(line: Int, cells: [String])], unclosed: Int?) {
        var rows: [(line: Int, cells: [String])] = [], cells: [String] = [], cell = ""
        var line = 1, start = 1, quoted = false, quoteLine = 0, afterQuote = false
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            if quoted {
                if character == "\"" {
                    if characters.first == "\"" { cell.append("\""); characters.removeFirst() } else { quoted = false; afterQuote = true }
                } else {
                    if character == "\n" || character == "\r\n" { line += 1 }
                    cell.append(character)
                }
                continue
            }
            switch character {
            case "\"" where cell.isEmpty && !afterQuote:
                quoted = true
                quoteLine = line
            case ",":
                cells.append(cell)
                cell = ""
                afterQuote = false
            case "\n", "\r\n", "\r":
                cells.append(cell)
                rows.append((start, cells))
                cells = []
                cell = ""
                afterQuote = false
                line += 1
                start = line
            default:
                cell.append(character)
            }
        }
        if quoted { return (rows, quoteLine) }
        if !cell.isEmpty || !cells.isEmpty { cells.append(cell); rows.append((start, cells)) }
        return (rows, nil)
    }
}

/// Why testers to add were refused before anything was sent (each message names the file, line or
/// option and says what to fix), or why adding them stopped part way (`stopped`).
public enum BetaTesterInputError: Error, LocalizedError, Sendable, Hashable {
    /// The file could not be read.
    case unreadable(file: String, reason: String)
    /// The file is larger than `BetaTesterFile.maximumBytes`.
    case tooLarge(file: String, limit: Int)
    /// Rows are wrong: every problem, as `file:line: what to fix`.
    case invalidFile(file: String, problems: [String])
    /// Groups named that the app does not have.
    case unknownGroups(problems: [String], app: String, available: [String])
    /// A public link limit outside Apple's bounds.
    case limitOutOfRange(Int)
    /// A public link asked of an internal group.
    case internalGroup(String)
    /// App Store Connect refused a tester after others were handled (`done`, which stay so);
    /// `reason` is the refusal's message. Not bad input: the commands exit 1.
    case stopped(done: [BetaTesterOutcome], reason: String)

    public var errorDescription: String? {
        switch self {
        case let .unreadable(file, reason):
            return "cannot read the testers file '\(file)': \(reason). Give the path of a CSV file in pilot's format."
        case let .tooLarge(file, limit):
            return "the testers file '\(file)' is larger than \(limit / 1024) KiB; check that it is the right file."
        case let .invalidFile(file, problems):
            return "\(problems.count) problem\(problems.count == 1 ? "" : "s") in '\(file)'; nothing was sent:\n"
                + problems.map { "  " + $0 }.joined(separator: "\n")
        case let .unknownGroups(problems, app, available):
            return problems.joined(separator: "\n") + "\nThe beta groups of \(app): "
                + (available.isEmpty ? "none (create one in App Store Connect → TestFlight)" : available.map { "'\($0)'" }.joined(separator: ", "))
                + ". Nothing was sent."
        case let .limitOutOfRange(limit):
            return "--limit \(limit) is outside 1...10000: TestFlight lets at most 10,000 external testers join an app. Give a number in "
                + "that range, or --no-limit."
        case let .stopped(done, reason):
            return reason + "\nAdding testers stopped there; the \(done.count) before (listed above) stay as they are. Run the command "
                + "again once that is fixed: testers already in their groups are skipped."
        case let .internalGroup(name):
            return "'\(name)' is an internal group: only external groups have a public link. Choose an external group."
        }
    }
}
