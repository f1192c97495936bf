/// git's merge driver for `project.pbxproj` (`slipway xcodeproj merge %O %A %B`): reads the
/// three versions, merges them on the object graph and writes the result into ours; when a
/// version does not read as a project, merges the files line by line instead, so that nothing
/// is lost.
public struct PBXProjMergeDriver: Sendable {
    /// What the driver did.
    public enum Outcome: Sendable {
        /// Merged on the object graph and written; `conflicts` were left between conflict
        /// markers (none: a clean merge). `notes` say what was repaired in the inputs.
        case merged(conflicts: [PBXProjMergeConflict], notes: [String])
        /// A version did not read as a project (`reason`); the files were merged line by line
        /// into ours instead, with conflict markers where the sides differ. `writeError`: the
        /// line merge could not be written.
        case mergedLineByLine(reason: String, writeError: PBXProjError?)
    }

    /// The common ancestor (git's %O).
    public let base: String
    /// Our version, where the result is written (git's %A).
    public let ours: String
    /// Their version (git's %B).
    public let theirs: String
    /// What to do with a version number both sides raised.
    public let versions: PBXProjVersionBumps

    /// A driver over the three files.
    public init(base: String, ours: String, theirs: String, versions: PBXProjVersionBumps = .higher) {
        self.base = base
        self.ours = ours
        self.theirs = theirs
        self.versions = versions
    }

    /// Merges the three files into `ours`. `lineMerge` merges them line by line (git's
    /// `merge-file -p` over ours, base, theirs), returning nil when it cannot; both sides whole
    /// between conflict markers are written then.
    /// - Throws: `PBXProjMergeError.unreadableFile` (before anything is written) when a file
    ///   cannot be read; `PBXProjError.unwritable` when the merged project cannot be written.
    public func run(lineMerge: (_ base: String, _ ours: String, _ theirs: String) async -> [UInt8]?) async throws -> Outcome {
        func read(_ path: String) throws -> [UInt8] {
            guard let bytes = try? FileIO.read(path) else { throw PBXProjMergeError.unreadableFile(path: path) }
            return bytes
        }
        // Base's and theirs' texts are handed over, so that the merge frees them with their trees
        // before it writes (ours' text is its tree's, kept to the end).
        let baseBytes = try read(base), ourBytes = try read(ours), theirBytes = try read(theirs)
        let result: PBXProjMergeResult
        do {
            result = try PBXProjMerge.merge(base: consume baseBytes, ours: ourBytes, theirs: consume theirBytes, versions: versions)
        } catch let error as PBXProjMergeError {
            // Theirs is read again (git's temporary file, which nothing writes): a merge that
            // does not read fails before anything is written.
            let theirBytes = try read(theirs)
            let whole = Array("<<<<<<< ours\n".utf8) + ourBytes + Array("\n=======\n".utf8) + theirBytes + Array("\n>>>>>>> theirs\n".utf8)
            var merged = await lineMerge(base, ours, theirs) ?? whole
            if merged.isEmpty && !(ourBytes.isEmpty && theirBytes.isEmpty) { merged = whole }
            do {
                try PBXProjMerge.writeAtomically(merged, to: ours, durable: false)
                return .mergedLineByLine(reason: error.message, writeError: nil)
            } catch let writeError as PBXProjError {
                return .mergedLineByLine(reason: error.message, writeError: writeError)
            }
        }
        // Ours as it is (nothing of theirs to take, in ours' own form): the file already holds it.
        let unchanged = result.bytes.withUnsafeBufferPointer { merged in ourBytes.withUnsafeBufferPointer { ByteCompare.equal(merged, $0) } }
        // Git's temporary file, which git reads back when the driver exits: not flushed to the
        // disk first (git does not flush its own writes to the work tree either).
        if !unchanged { try PBXProjMerge.writeAtomically(result.bytes, to: ours, durable: false) }
        return .merged(conflicts: result.conflicts, notes: result.notes)
    }
}
