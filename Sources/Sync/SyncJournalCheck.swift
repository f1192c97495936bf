import Basics
import PBXProj

extension SyncState {
    /// Checks, before recovery touches anything, that `journal` is one this Slipway wrote for
    /// this project: signed with this user's key for this state folder and project folder, for
    /// this `.xcodeproj`, naming only the git index of the repository holding the project, and
    /// with every path (move sources and destinations, created folders) inside the project
    /// folder and outside the git directory.
    /// - Throws: `SyncError.untrustedJournal` naming the journal and the first problem.
    func check(_ journal: SyncJournal, projectBundle: String) throws {
        func refuse(_ reason: String) -> SyncError { .untrustedJournal(path: journalPath, reason: reason) }
        let header = journal.header
        let verdict: String?
        do { verdict = try verify(header) } catch let error as StateFileError { throw refuse(error.reason) }
        if let verdict { throw refuse(verdict) }
        guard header.projectBundle == projectBundle else {
            throw refuse("it is for the project '\(header.projectBundle)', not '\(projectBundle)'")
        }
        if let index = header.gitIndex, index != gitIndex, StateFiles.resolved(index) != gitIndex.flatMap(StateFiles.resolved) {
            throw refuse("it names the git index '\(index)', which is not the index of the repository holding the project ('\(gitIndex ?? "no repository")')")
        }
        let edited = (header.fileEdits ?? []).flatMap { [$0.path, $0.finalPath] }
        for path in header.moves.flatMap({ [$0.source, $0.destination] }) + journal.createdDirectories + edited {
            if let problem = problem(with: path) { throw refuse("it names '\(path)': \(problem)") }
        }
        for edit in header.fileEdits ?? [] where !isSHA256(edit.originalSHA256) {
            throw refuse("its record of the saved copy of '\(edit.path)' ('\(edit.originalSHA256)') is not a SHA-256")
        }
        for event in journal.events where event.event == .indexSaved {
            let digest = event.path ?? ""
            guard digest == "absent" || (digest.utf8.count == 64 && digest.utf8.allSatisfy { isHexDigit($0) }) else {
                throw refuse("its record of the saved git index ('\(digest)') is not a SHA-256")
            }
        }
    }

    /// Checks a plan's moves the same way before the first one is made (a project folder whose
    /// folders were swapped for symbolic links since it was listed, a planner bug).
    /// - Throws: `SyncError.applyFailed` (nothing was touched).
    func checkPlan(_ moves: [SyncMove]) throws {
        for path in moves.flatMap({ [$0.source, $0.destination] }) {
            if let problem = problem(with: path) {
                throw SyncError.applyFailed(step: "checking the planned move of '\(path)'", reason: problem + ".", restored: true, journal: "")
            }
        }
    }

    /// Checks the files a sync rewrites the same way before anything is written.
    /// - Throws: `SyncError.applyFailed` (nothing was touched).
    func checkEdits(_ edits: [PathReferenceEdit]) throws {
        for path in edits.flatMap({ [$0.path, $0.finalPath] }) {
            if let problem = problem(with: path) {
                throw SyncError.applyFailed(step: "checking the planned rewrite of '\(path)'", reason: problem + ".", restored: true, journal: "")
            }
        }
    }

    private func isSHA256(_ digest: String) -> Bool {
        digest.utf8.count == 64 && digest.utf8.allSatisfy { isHexDigit($0) }
    }

    private func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}
