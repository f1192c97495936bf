import PBXProj
import Basics
import Crypto
import Foundation

/// The record of a sync in progress, so that an interrupted run can be undone exactly.
///
/// It lives in the project's state folder (`SyncState.folder`: under `.git/slipway/sync/`, or
/// the user's state folder without git; never in the checkout) as `journal.json`, in JSON Lines: the
/// first line is the header (format version, the original pbxproj's SHA-256, every planned
/// move, the run id and the HMAC that ties it to this user and project), written atomically and
/// flushed before the first move; each
/// later line is one event (a folder about to be created, a move done, the git index saved,
/// the pbxproj written, the commit). Events are appended as they happen and flushed to the disk
/// every 64 moves or folder creations and at every phase change: a killed process loses nothing (the
/// kernel has the bytes), and because every move is a rename whose effect can be seen on disk,
/// recovery checks each move's source and destination instead of trusting the last line.
public struct SyncJournal: Sendable {
    /// Where Slipway before issue 23 kept the journal (inside the `.xcodeproj` folder). A file
    /// there is never acted on: it comes from the checkout and may be hostile.
    public static let legacyFileName = ".slipway-sync-journal.json"
    /// The folder that holds files `--prune` deletes until the sync is complete.
    public static let trashFolderName = ".slipway-sync-trash"
    /// The format version this Slipway writes and reads.
    public static let currentVersion = 1

    /// The first line.
    public struct Header: Codable, Sendable, Equatable {
        /// The format version.
        public var version: Int
        /// Always `slipway-sync`.
        public var kind: String
        /// The `.xcodeproj` folder's path relative to the folder the move paths are relative to.
        public var projectBundle: String
        /// SHA-256 (hex) of the pbxproj before the sync.
        public var pbxprojSHA256: String
        /// The moves, in order; paths relative to the folder holding the `.xcodeproj`.
        public var moves: [SyncMove]
        /// The git index file, when the sync stages its moves.
        public var gitIndex: String?
        /// Files the sync rewrites besides the pbxproj (xcconfigs naming moved files), saved
        /// before the first move (`SyncState.fileBackupPath(_:)`); nil when none.
        public var fileEdits: [FileEdit]?
        /// A random id of the run that wrote the journal.
        public var runID: String?
        /// HMAC-SHA256 (hex) of the header without this field, the state folder and the project
        /// folder, with this user's key (see `SyncState.sign`).
        public var authenticator: String?

        /// Creates a header (unsigned: see `SyncState.sign`).
        public init(version: Int, kind: String, projectBundle: String, pbxprojSHA256: String, moves: [SyncMove], gitIndex: String?) {
            self.version = version
            self.kind = kind
            self.projectBundle = projectBundle
            self.pbxprojSHA256 = pbxprojSHA256
            self.moves = moves
            self.gitIndex = gitIndex
        }
    }

    /// A file the sync rewrites (see `Header.fileEdits`).
    public struct FileEdit: Codable, Sendable, Equatable {
        /// Its path before the sync, relative to the project folder (where a rollback restores it).
        public var path: String
        /// Its path after the moves, relative to the project folder (where the new text goes).
        public var finalPath: String
        /// SHA-256 (hex) of the original bytes (the saved copy's).
        public var originalSHA256: String

        /// Creates an entry.
        public init(path: String, finalPath: String, originalSHA256: String) {
            self.path = path
            self.finalPath = finalPath
            self.originalSHA256 = originalSHA256
        }
    }

    /// One thing that happened.
    public struct Event: Codable, Sendable, Equatable {
        /// What happened.
        public enum Kind: String, Codable, Sendable {
            /// A folder is about to be created (`path`).
            case createDirectory
            /// Move `index` was done.
            case moved
            /// The git index was saved (`path`: "absent" when there was none).
            case indexSaved
            /// Staging in the git index started.
            case stagingStarted
            /// Staging finished.
            case staged
            /// The new pbxproj was written.
            case pbxprojWritten
            /// The files of `Header.fileEdits` were rewritten.
            case filesEdited
            /// The sync is complete; only clean-up remains (recovery finishes it).
            case committed
        }

        /// What happened.
        public var event: Kind
        /// The move's index.
        public var index: Int?
        /// The folder, or a detail.
        public var path: String?

        /// Creates an event.
        public init(_ event: Kind, index: Int? = nil, path: String? = nil) {
            self.event = event
            self.index = index
            self.path = path
        }
    }

    /// The header.
    public var header: Header
    /// The events in order.
    public var events: [Event]

    /// Whether the sync reached its commit point.
    public var isCommitted: Bool { events.contains { $0.event == .committed } }
    /// The highest move index recorded as done (-1: none).
    public var lastMoved: Int { events.reduce(-1) { $1.event == .moved ? max($0, $1.index ?? -1) : $0 } }
    /// The folders the sync created, in order.
    public var createdDirectories: [String] { events.filter { $0.event == .createDirectory }.compactMap(\.path) }

    /// Reads the journal at `path` without following a symbolic link (a regular file of this
    /// user, at most `StateFiles.readLimit` bytes). A damaged last line (a write cut short) is
    /// ignored. Reading is not trusting: see `SyncJournalCheck`.
    /// - Throws: `SyncError.unreadableJournal` for a damaged header or a newer version,
    ///   `.untrustedJournal` for a link, another user's file or an oversized one.
    public static func read(_ path: String) throws -> SyncJournal {
        let bytes: [UInt8]
        do {
            guard let read = try StateFiles.read(path) else { throw FileSystemError.notFound(path: path) }
            bytes = read
        } catch let error as StateFileError {
            throw SyncError.untrustedJournal(path: path, reason: error.reason)
        } catch {
            throw SyncError.unreadableJournal(path: path, reason: errorText(error))
        }
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        guard let first = lines.first else { throw SyncError.unreadableJournal(path: path, reason: "it is empty") }
        struct Version: Decodable { var version: Int?; var kind: String? }
        let decoder = JSONDecoder()
        guard let version = try? decoder.decode(Version.self, from: Data(first)), version.kind == "slipway-sync",
            let number = version.version
        else { throw SyncError.unreadableJournal(path: path, reason: "its first line is not a Slipway sync journal header") }
        guard number <= currentVersion else {
            throw SyncError.unreadableJournal(path: path, reason: "it was written by a newer Slipway (format \(number); this one reads \(currentVersion)); recover with that version")
        }
        guard let header = try? decoder.decode(Header.self, from: Data(first)) else {
            throw SyncError.unreadableJournal(path: path, reason: "its header is damaged")
        }
        let events = lines.dropFirst().compactMap { try? decoder.decode(Event.self, from: Data($0)) }
        return SyncJournal(header: header, events: events)
    }

    /// SHA-256 of `bytes`, in lower-case hex.
    public static func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).hexString
    }
}

/// Writes a journal: the header once, then events.
struct JournalWriter {
    let fileSystem: any FileSystem
    /// The journal's absolute path.
    let path: String
    /// Moves between two flushes to the disk.
    let flushInterval: Int
    private(set) var journal: SyncJournal
    private var unflushedMoves = 0

    init(fileSystem: any FileSystem, path: String, header: SyncJournal.Header, flushInterval: Int = 64) {
        self.fileSystem = fileSystem
        self.path = path
        self.flushInterval = flushInterval
        journal = SyncJournal(header: header, events: [])
    }

    /// Writes the header atomically and flushes the file and its folder.
    func start() throws {
        let line = try JSONFormatting.line(journal.header) + "\n"
        try fileSystem.writeAtomically(Array(line.utf8), to: path)
        try fileSystem.synchronizeDirectory(ProjectPath.parent(path))
    }

    /// Appends an event. Moves and folder creations are flushed to the disk every
    /// `flushInterval` events (recovery checks the disk for them anyway), phase changes at once.
    mutating func record(_ event: SyncJournal.Event) throws {
        journal.events.append(event)
        var flush = true
        if event.event == .moved || event.event == .createDirectory {
            unflushedMoves += 1
            flush = unflushedMoves >= flushInterval
        }
        if flush { unflushedMoves = 0 }
        // The most frequent line, written without an encoder (same bytes, sorted keys).
        let line = event.event == .moved && event.path == nil
            ? "{\"event\":\"moved\",\"index\":\(event.index ?? -1)}"
            : try JSONFormatting.line(event)
        try fileSystem.append(Array((line + "\n").utf8), to: path, synchronize: flush)
    }
}
