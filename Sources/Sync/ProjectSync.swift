import Basics
import PBXProj

/// `slipway sync` as one library call: read the project, recover an interrupted sync, list the
/// folder, plan, check git, apply.
///
/// ```swift
/// let sync = ProjectSync(fileSystem: LocalFileSystem(), environment: .current)
/// let report = try sync.run("App.xcodeproj", options: SyncOptions(), mode: .check)
/// print(report.isInSync)
/// ```
public struct ProjectSync: Sendable {
    /// A project read for syncing.
    public struct LoadedProject: Sendable {
        /// The absolute path of the folder holding the `.xcodeproj`.
        public let root: String
        /// The `.xcodeproj` folder's name (its path relative to `root`).
        public let projectBundle: String
        /// The pbxproj's absolute path.
        public let pbxprojPath: String
        /// The bytes on disk.
        public let bytes: [UInt8]
        /// The parsed project.
        public let project: PBXProject
    }

    let fileSystem: any FileSystem
    let environment: Environment
    let openGit: @Sendable (String) throws -> (any SyncGit)?
    let progress: (@Sendable (Int, Int) -> Void)?
    let scope: @Sendable (String) -> (root: String, projectPrefix: String)?

    /// Where the scan for path references looks, for the project folder `folder`: the git
    /// working tree holding it (found even with `--no-git`), nil for the project folder only.
    public static let workingTreeScope: @Sendable (String) -> (root: String, projectPrefix: String)? = { folder in
        guard let found = (try? LibGit2SyncGit.discover(projectFolder: folder)) ?? nil, let root = found.workingDirectory else { return nil }
        return (root, found.projectPrefix)
    }

    /// A sync working through `fileSystem`.
    ///
    /// - Parameters:
    ///   - environment: Read for the test-only crash hook (`SyncApplier.testStopAfterMovesVariable`).
    ///   - git: Opens the repository holding a folder (nil: none); libgit2 by default.
    ///   - progress: Called after each move with (done, total).
    ///   - scope: Where to look for path references (see `workingTreeScope`, the default).
    public init(
        fileSystem: any FileSystem, environment: Environment,
        git: @escaping @Sendable (String) throws -> (any SyncGit)? = { try LibGit2SyncGit.discover(projectFolder: $0) },
        progress: (@Sendable (Int, Int) -> Void)? = nil,
        scope: @escaping @Sendable (String) -> (root: String, projectPrefix: String)? = ProjectSync.workingTreeScope
    ) {
        self.fileSystem = fileSystem
        self.environment = environment
        openGit = git
        self.progress = progress
        self.scope = scope
    }

    /// Where the project at `path` (an `.xcodeproj` folder or the pbxproj in it) lives.
    /// - Throws: `SyncError.projectNotFound`, `.missingPBXProj`.
    public func locate(_ path: String) throws -> (root: String, projectBundle: String, pbxprojPath: String) {
        guard fileSystem.kind(of: path) != nil else { throw SyncError.projectNotFound(path: path) }
        let file = ProjectFile(path: path)
        let bundle = ProjectPath.lastComponent(ProjectPath.parent(ProjectPath.normalize(file.pbxprojPath)))
        guard bundle.hasSuffix(".xcodeproj") else { throw SyncError.missingPBXProj(path: path) }
        let root = file.projectDirectory
        return (root, bundle, root + "/" + bundle + "/project.pbxproj")
    }

    /// Reads and parses the project at `path`.
    /// - Throws: `SyncError.projectNotFound`, `.missingPBXProj`, `.unreadableProject`.
    public func load(_ path: String) throws -> LoadedProject {
        let (root, bundle, pbxproj) = try locate(path)
        let bytes: [UInt8]
        do {
            bytes = try fileSystem.read(pbxproj, as: .projectFile)
        } catch FileSystemError.notFound {
            throw SyncError.missingPBXProj(path: path)
        } catch {
            throw SyncError.unreadableProject(path: pbxproj, detail: errorText(error))
        }
        do {
            let project = try PBXProject(bytes: bytes, projectName: String(bundle.dropLast(".xcodeproj".count)))
            return LoadedProject(root: root, projectBundle: bundle, pbxprojPath: pbxproj, bytes: bytes, project: project)
        } catch {
            throw SyncError.unreadableProject(path: pbxproj, detail: errorText(error))
        }
    }

    /// Plans (and, for `.apply`, applies) the sync of the project at `path`.
    ///
    /// A plan with conflicts is returned, never applied. With `.apply`, a journal left by an
    /// interrupted sync is recovered first (see `recover(_:)`).
    ///
    /// The project's lock (`ExclusiveLock.acquireProject`) is held throughout, in every mode: a
    /// `--check` next to a running sync would otherwise see its journal and call it interrupted,
    /// and read a half-moved tree.
    /// - Throws: `LockError.busy` when another process works on the project (nothing was
    ///   read or changed); what `load(_:)` and `SyncPlanner.plan` throw; `SyncError.interruptedSync` when
    ///   a journal exists in `.check`/`.dryRun`; `.legacyJournal` when the `.xcodeproj` holds a
    ///   journal at the old place (nothing is read or written then); `.untrustedJournal`;
    ///   `.dirtyWorkingTree`; `.applyFailed`; `.git`; `StateFileError` for a symbolic link in
    ///   place of the project's lock file or folder; `.pathReferences` when files Slipway does
    ///   not rewrite name moving paths (or could not be read) and `acceptPathReferences` is false.
    /// - Parameter acceptPathReferences: Sync even when files name moving paths (they are reported).
    public func run(_ path: String, options: SyncOptions, mode: SyncMode, acceptPathReferences: Bool = false) throws -> SyncReport {
        let located = try locate(path)
        try refuseLegacyJournal(root: located.root, projectBundle: located.projectBundle)
        let lock = try ExclusiveLock.acquireProject(pbxproj: located.pbxprojPath)
        defer { lock?.release() }
        var loaded = try load(path)
        let opened = Result { try openGit(loaded.root) }
        let state = self.state(root: loaded.root, projectBundle: loaded.projectBundle, git: opened)
        let recovery = SyncRecovery(fileSystem: fileSystem, root: loaded.root, projectBundle: loaded.projectBundle, state: state)
        var recovered: SyncRecovery.Report?
        if recovery.hasJournal {
            guard mode == .apply else { throw SyncError.interruptedSync(journal: recovery.journalPath) }
            recovered = try recovery.recover()
            loaded = try load(path)
        }
        let listing = try DirectoryListing.scan(root: loaded.root, fileSystem: fileSystem)
        // The repository is opened and the clean tree proven on a thread of their own while
        // the plan is made: neither needs the plan, and a sync that applies needs both.
        let allowDirty = options.allowDirty
        let gitCheck = mode == .apply && options.useGit ? JoinableWork(name: "slipway-sync-git") {
            let git = try opened.get()
            return (git: git, proven: try allowDirty || git?.isProvablyClean(listing: listing) ?? true)
        } : nil
        let submodules = SyncSubmodules.paths(root: loaded.root, fileSystem: fileSystem)
        let planned = Result {
            var plan = try SyncPlanner.plan(
                project: loaded.project, listing: listing, options: options, projectBundle: loaded.projectBundle, submodules: submodules)
            // `--check` gates placement: the children's order counts only when asked for.
            if mode == .check && !options.checkOrder { plan.edits.removeAll { $0.key == .children } }
            return plan
        }
        // Always collected, so that no thread is left working in the repository; its failure
        // counts only when the sync goes on to apply.
        let gitChecked = Result { try gitCheck?.join() }
        let plan = try planned.get()
        var report = SyncReport(project: loaded.pbxprojPath, mode: mode, plan: plan, recovered: recovered)
        let scan = plan.conflicts.isEmpty && !plan.moves.isEmpty ? scanPathReferences(loaded, plan: plan) : nil
        if let scan {
            report.pathReferences = scan.references
            report.pathReferencesNotRead = scan.unread
            report.pathReferenceScanLimit = scan.limitReached
            report.rewrittenFiles = scan.edits
        }
        guard mode == .apply, plan.conflicts.isEmpty, !plan.isEmpty else { return report }
        if let scan, !scan.isClear, !acceptPathReferences { throw SyncError.pathReferences(references: scan.unresolved.map(\.description), unread: scan.unreadLines) }
        let checked = try gitChecked.get()
        let git = checked?.git
        if let git, let checked, !checked.proven {
            let dirty = try git.uncommittedChanges()
            guard dirty.isEmpty else { throw SyncError.dirtyWorkingTree(repository: loaded.root, paths: dirty) }
        }
        report.usedGit = git != nil
        let applier = SyncApplier(
            fileSystem: fileSystem, root: loaded.root, projectBundle: loaded.projectBundle, git: git,
            environment: environment, state: state, progress: progress)
        report.applied = try applier.apply(plan, to: loaded.project, originalBytes: loaded.bytes, fileEdits: scan?.edits ?? [])
        return report
    }

    /// The places in the working tree (or the project folder) that name what `plan` moves.
    private func scanPathReferences(_ loaded: LoadedProject, plan: SyncPlan) -> PathReferenceScan {
        let found = scope(loaded.root)
        let scanner = PathReferenceScanner(
            fileSystem: fileSystem, root: found?.root ?? loaded.root, projectPrefix: found?.projectPrefix ?? "", projectBundle: loaded.projectBundle)
        return scanner.scan(plan: plan, project: loaded.project)
    }

    /// Rolls back the interrupted sync of the project at `path` (or finishes one that had
    /// passed its commit point).
    /// - Throws: `LockError.busy` when another process works on the project;
    ///   `SyncError.legacyJournal` for a journal at the old place in the `.xcodeproj` (never used);
    ///   `SyncError.nothingToRecover` without a journal; what `SyncRecovery.recover()` throws.
    public func recover(_ path: String) throws -> SyncRecovery.Report {
        let (root, bundle, pbxproj) = try locate(path)
        try refuseLegacyJournal(root: root, projectBundle: bundle)
        let lock = try ExclusiveLock.acquireProject(pbxproj: pbxproj)
        defer { lock?.release() }
        let state = self.state(root: root, projectBundle: bundle, git: Result { try openGit(root) })
        return try SyncRecovery(fileSystem: fileSystem, root: root, projectBundle: bundle, state: state).recover()
    }

    /// Where the sync state of the project lives: in the git directory of the repository that
    /// holds it, or (no repository, or one that cannot be opened) the user's state folder.
    public func state(root: String, projectBundle: String, git: Result<(any SyncGit)?, any Error>) -> SyncState {
        let gitDirectory = ((try? git.get()) ?? nil).map { ProjectPath.parent($0.indexPath) }
        return SyncState(root: root, projectBundle: projectBundle, gitDirectory: gitDirectory, environment: environment)
    }

    /// The journal Slipway kept inside the `.xcodeproj` before issue 23 is checkout content: it is
    /// never read, and its presence stops the sync before anything is written.
    private func refuseLegacyJournal(root: String, projectBundle: String) throws {
        let legacy = root + "/" + projectBundle + "/" + SyncJournal.legacyFileName
        if fileSystem.kind(of: legacy) != nil { throw SyncError.legacyJournal(path: legacy) }
    }
}
