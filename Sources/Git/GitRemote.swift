import CLibgit2
import Foundation

extension GitRepository {
    /// Pushes `refspecs` (e.g. `refs/heads/main:refs/heads/main`, `refs/tags/v1.2.0`) to
    /// `remote`, and checks every ref's result: a server can refuse one ref (a hook, a
    /// protected branch) while the push as a whole "succeeds", and that is an error here.
    /// - Parameters:
    ///   - remote: a configured remote's name, or a URL / path to push to directly.
    ///   - refspecs: what to push; empty pushes the remote's configured push refspecs.
    ///   - credentials: for HTTPS remotes that need them (see `GitCredentials.token(_:)`).
    /// - Returns: the remote refs that were updated.
    /// - Throws: `GitError.pushRejected` naming each refused ref and the server's reason,
    ///   `.authenticationFailed`, `.remoteFailed`, `.remoteNotFound`.
    @discardableResult
    public func push(remote: String = "origin", refspecs: [String], credentials: GitCredentials? = nil) throws -> [String] {
        try withHandle { repo in
            let (handle, url) = try openRemote(remote, repo: repo)
            defer { git_remote_free(handle) }
            let context = RemoteCallbackContext(credentials: credentials)
            var options = git_push_options()
            git_push_options_init(&options, UInt32(GIT_PUSH_OPTIONS_VERSION))
            context.install(into: &options.callbacks)
            let code = withExtendedLifetime(context) {
                // off-pool: callers run push through BlockingWork.run (git.push step).
                withStrArray(refspecs) { git_remote_push(handle, &$0, &options) }
            }
            if code < 0 {
                let failure = LibGit2Failure(code: code)
                if code == GIT_ENONFASTFORWARD.rawValue {
                    throw GitError.pushNotFastForward(
                        remote: remote, references: Self.nonFastForward(context.negotiatedUpdates, repo: repo),
                        libgit2: failure.message)
                }
                throw Self.remoteError(failure, context: context, operation: "push to", url: url)
            }
            guard context.rejections.isEmpty else {
                throw GitError.pushRejected(
                    remote: remote, rejections: context.rejections, updated: context.updatedReferences,
                    serverOutput: context.serverMessages)
            }
            return context.updatedReferences
        }
    }

    /// The tags of the repository at `url`, like `git ls-remote --tags`, without cloning it:
    /// tag name (without `refs/tags/`) → the commit it points at. For an annotated tag the
    /// server's peeled `^{}` entry is used, so the value is the tagged commit, not the tag
    /// object. Needs no local repository.
    /// - Throws: `GitError.authenticationFailed`, `.remoteFailed`.
    public static func listRemoteTags(url: String, credentials: GitCredentials? = nil) throws -> [String: GitOID] {
        LibGit2.ensureInitialized()
        var handle: OpaquePointer?
        try check(git_remote_create_detached(&handle, url)) {
            .remoteFailed(operation: "read the tags of", url: url, libgit2: $0.message)
        }
        defer { git_remote_free(handle) }
        let context = RemoteCallbackContext(credentials: credentials)
        var callbacks = git_remote_callbacks()
        git_remote_init_callbacks(&callbacks, UInt32(GIT_REMOTE_CALLBACKS_VERSION))
        context.install(into: &callbacks)
        let code = withExtendedLifetime(context) {
            // off-pool: callers run listRemoteTags through BlockingWork.run (Pins).
            git_remote_connect(handle, GIT_DIRECTION_FETCH, &callbacks, nil, nil)
        }
        if code < 0 {
            throw remoteError(LibGit2Failure(code: code), context: context, operation: "read the tags of", url: url)
        }
        defer { git_remote_disconnect(handle) }
        var heads: UnsafeMutablePointer<UnsafePointer<git_remote_head>?>?
        var count = 0
        try check(git_remote_ls(&heads, &count, handle)) {
            .remoteFailed(operation: "read the tags of", url: url, libgit2: $0.message)
        }
        var direct: [String: GitOID] = [:]
        var peeled: [String: GitOID] = [:]
        for position in 0..<count {
            guard let head = heads?[position], let name = string(head.pointee.name),
                  name.hasPrefix("refs/tags/")
            else { continue }
            var oid = head.pointee.oid
            let tag = String(name.dropFirst("refs/tags/".count))
            if tag.hasSuffix("^{}") {
                peeled[String(tag.dropLast(3))] = GitOID(pointer: &oid)
            } else {
                direct[tag] = GitOID(pointer: &oid)
            }
        }
        return direct.merging(peeled) { _, peeledValue in peeledValue }
    }

    /// Clones `url` into `destination` (absent or empty) and opens the clone.
    /// - Parameters:
    ///   - reference: what to check out: a branch of the remote (a local tracking branch is
    ///     made), a tag or a commit id (HEAD is detached there); nil for the remote's default.
    ///   - credentials: for HTTPS remotes that need them.
    /// - Throws: `GitError.cloneFailed`, `.authenticationFailed`, `.revisionNotFound` when
    ///   `reference` is not in the clone (the clone is then removed again).
    public static func clone(
        url: String, to destination: String, checkout reference: String? = nil, credentials: GitCredentials? = nil
    ) throws -> GitRepository {
        LibGit2.ensureInitialized()
        let existed = FileManager.default.fileExists(atPath: destination)
        let context = RemoteCallbackContext(credentials: credentials)
        var options = git_clone_options()
        git_clone_options_init(&options, UInt32(GIT_CLONE_OPTIONS_VERSION))
        context.install(into: &options.fetch_opts.callbacks)
        if reference != nil {
            options.checkout_opts.checkout_strategy = GIT_CHECKOUT_NONE.rawValue
        }
        var pointer: OpaquePointer?
        // off-pool: callers run clone through BlockingWork.run (Pins).
        let code = withExtendedLifetime(context) { git_clone(&pointer, url, destination, &options) }
        guard code == 0, let pointer else {
            let failure = LibGit2Failure(code: code)
            if context.credentialsRefused || code == GIT_EAUTH.rawValue {
                throw GitError.authenticationFailed(url: url, libgit2: failure.message)
            }
            throw GitError.cloneFailed(url: url, destination: destination, libgit2: failure.message)
        }
        let repository = GitRepository(handle: pointer)
        if let reference {
            do {
                try repository.checkOutAfterClone(reference)
            } catch {
                if !existed { try? FileManager.default.removeItem(atPath: destination) }
                throw error
            }
        }
        return repository
    }

    // MARK: - Helpers

    /// Looks up a configured remote, or makes an anonymous one when `nameOrURL` is a URL/path.
    private func openRemote(_ nameOrURL: String, repo: OpaquePointer) throws -> (OpaquePointer, String) {
        var handle: OpaquePointer?
        let code = git_remote_lookup(&handle, repo, nameOrURL)
        if code == 0, let handle {
            return (handle, string(git_remote_pushurl(handle)) ?? string(git_remote_url(handle)) ?? nameOrURL)
        }
        let looksLikeURL = nameOrURL.contains("/") || nameOrURL.contains(":")
        guard looksLikeURL else {
            throw GitError.remoteNotFound(name: nameOrURL, repository: displayPath)
        }
        try check(git_remote_create_anonymous(&handle, repo, nameOrURL)) {
            .remoteFailed(operation: "use the remote", url: nameOrURL, libgit2: $0.message)
        }
        guard let handle else { throw GitError.remoteNotFound(name: nameOrURL, repository: displayPath) }
        return (handle, nameOrURL)
    }

    /// The negotiated updates whose remote commit is not in the local commit's history.
    private static func nonFastForward(
        _ updates: [(reference: String, local: git_oid, remote: git_oid)], repo: OpaquePointer
    ) -> [String] {
        updates.compactMap { update in
            var local = update.local, remote = update.remote
            if git_oid_is_zero(&remote) == 1 || git_oid_equal(&local, &remote) == 1 { return nil }
            return git_graph_descendant_of(repo, &local, &remote) == 1 ? nil : update.reference
        }
    }

    private static func remoteError(
        _ failure: LibGit2Failure, context: RemoteCallbackContext, operation: String, url: String
    ) -> GitError {
        if context.credentialsRefused {
            return .authenticationFailed(url: url, libgit2: "the server refused the credentials for '\(context.credentials?.username ?? "")'")
        }
        if failure.code == GIT_EAUTH.rawValue {
            return .authenticationFailed(url: url, libgit2: failure.message)
        }
        return .remoteFailed(operation: operation, url: url, libgit2: failure.message)
    }

    /// Points HEAD at `reference` in a fresh clone and checks the files out.
    private func checkOutAfterClone(_ reference: String) throws {
        let workdir = try requireWorkingDirectory(for: "check out '\(reference)'")
        try withHandle { repo in
            let remoteBranch = "refs/remotes/origin/" + reference
            var oid = git_oid()
            if git_reference_name_to_id(&oid, repo, remoteBranch) == 0 {
                try ensureLocalBranch(reference, at: &oid, repo: repo)
                try check(git_repository_set_head(repo, "refs/heads/" + reference)) {
                    .operationFailed(operation: "check out branch '\(reference)' in", subject: workdir, libgit2: $0.message)
                }
            } else {
                var commit = try resolveCommit(reference, in: repo).raw
                try check(git_repository_set_head_detached(repo, &commit)) {
                    .operationFailed(operation: "check out '\(reference)' in", subject: workdir, libgit2: $0.message)
                }
            }
            var options = git_checkout_options()
            git_checkout_options_init(&options, UInt32(GIT_CHECKOUT_OPTIONS_VERSION))
            options.checkout_strategy = GIT_CHECKOUT_FORCE.rawValue
            try check(git_checkout_head(repo, &options)) {
                .operationFailed(operation: "check out '\(reference)' in", subject: workdir, libgit2: $0.message)
            }
        }
    }

    /// Starts the local branch `name` where HEAD is (as `git checkout -b NAME`), or, in a
    /// repository without commits, points HEAD at it so that the first commit makes it. The files
    /// do not change.
    /// - Throws: `GitError.invalidName` for a name git refuses, `.operationFailed`.
    public func startBranch(_ name: String) throws {
        let workdir = try requireWorkingDirectory(for: "start branch '\(name)'")
        try withHandle { repo in
            var oid = git_oid()
            if git_reference_name_to_id(&oid, repo, "HEAD") == 0 {
                var commit: OpaquePointer?
                try check(git_commit_lookup(&commit, repo, &oid)) {
                    .operationFailed(operation: "start branch '\(name)' in", subject: workdir, libgit2: $0.message)
                }
                defer { git_commit_free(commit) }
                var branch: OpaquePointer?
                try check(git_branch_create(&branch, repo, name, commit, 0)) {
                    .invalidName(kind: "branch", name: name, libgit2: $0.message)
                }
                git_reference_free(branch)
            } else if git_reference_is_valid_name("refs/heads/" + name) != 1 {
                throw GitError.invalidName(kind: "branch", name: name, libgit2: "not a valid reference name")
            }
            try check(git_repository_set_head(repo, "refs/heads/" + name)) {
                .operationFailed(operation: "start branch '\(name)' in", subject: workdir, libgit2: $0.message)
            }
        }
    }

    private func ensureLocalBranch(_ name: String, at oid: inout git_oid, repo: OpaquePointer) throws {
        var existing: OpaquePointer?
        if git_branch_lookup(&existing, repo, name, GIT_BRANCH_LOCAL) == 0 {
            git_reference_free(existing)
            return
        }
        var commit: OpaquePointer?
        try check(git_commit_lookup(&commit, repo, &oid)) {
            .revisionNotFound(revision: name, repository: self.displayPath, libgit2: $0.message)
        }
        defer { git_commit_free(commit) }
        var branch: OpaquePointer?
        try check(git_branch_create(&branch, repo, name, commit, 0)) {
            .invalidName(kind: "branch", name: name, libgit2: $0.message)
        }
        defer { git_reference_free(branch) }
        _ = git_branch_set_upstream(branch, "origin/" + name)
    }
}
