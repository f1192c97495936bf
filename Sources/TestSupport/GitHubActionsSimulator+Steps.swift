import Basics
import Crypto
import Foundation

// SIMULATION — not GitHub. How one job runs on its "runner", following GitHub's docs for job
// and step `if:`, `env:`, `shell` (bash: `bash --noprofile --norc -eo pipefail {0}`; none:
// `bash -e {0}`) and the READMEs of actions/checkout@v4 (init + fetch, fetch-depth 0 = all
// history and tags, then `checkout -B <branch>` at the run's commit), upload-artifact@v4,
// download-artifact@v4 and cache@v4 (a no-op here).

/// A step that failed, with the line GitHub would log as `##[error]`.
struct StepFailure: Error {
    let message: String
}

/// One job on its own runner: folders, log, environment.
struct RunnerJob {
    let job: GitHubActionsWorkflow.Job
    let attempt: Int
    let runnerRoot: String
    var workspace: String { runnerRoot + "/work" }
    var home: String { runnerRoot + "/home" }
    var temp: String { runnerRoot + "/temp" }
    var context: ExpressionContext
    var log = ""
    var secretValues: [String] = []
    /// Folders steps added with `$GITHUB_PATH`, in the order added.
    var addedPaths: [String] = []

    mutating func write(_ text: String) {
        var masked = text
        for secret in secretValues { masked = masked.replacingOccurrences(of: secret, with: "***") }
        log += masked.hasSuffix("\n") || masked.isEmpty ? masked : masked + "\n"
    }
}

extension GitHubActionsSimulator {
    /// Runs one job (or skips it) on a fresh runner.
    func runJob(_ job: GitHubActionsWorkflow.Job, attempt: Int) async -> GitHubActionsJobRun {
        let runnerRoot = root + "/runners/\(job.id)-attempt\(attempt)"
        var runner = RunnerJob(job: job, attempt: attempt, runnerRoot: runnerRoot,
                               context: context(for: job, attempt: attempt, workspace: runnerRoot + "/work", temp: runnerRoot + "/temp"))
        runner.secretValues = secrets.values.flatMap { value in
            [value] + value.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        }.filter { $0.count >= 3 }.sorted { $0.count > $1.count }
        var skipped = GitHubActionsJobRun(id: job.id, attempt: attempt, status: .skipped, steps: [], log: "", workspace: nil)
        do {
            guard try runner.context.condition(job.condition ?? "success()") else {
                skipped.log = "Job '\(job.id)' skipped: its 'if' (\(job.condition ?? "success()")) is false\n"
                return skipped
            }
            for folder in [runner.workspace, runner.home, runner.temp] {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            for variable in workflow.env + job.env {
                runner.context.env[variable.name] = try ExpressionTemplate(variable.value).render(in: runner.context)
            }
        } catch {
            skipped.status = .failed
            skipped.log = "##[error]job '\(job.id)': \(Self.describe(error))\n"
            return skipped
        }
        runner.write("SIMULATION — not GitHub: job '\(job.id)' (runs-on: \(job.runsOn)), attempt \(attempt), at \(commit)")
        var steps: [GitHubActionsStepRun] = []
        var jobSucceeded = true
        for step in job.steps {
            let status = await runStep(step, in: &runner, jobSucceeded: jobSucceeded)
            if status == .failed && !step.continueOnError { jobSucceeded = false }
            steps.append(GitHubActionsStepRun(name: step.name, status: status))
        }
        return GitHubActionsJobRun(id: job.id, attempt: attempt, status: jobSucceeded ? .succeeded : .failed,
                                   steps: steps, log: runner.log, workspace: runner.workspace)
    }

    func runStep(_ step: GitHubActionsWorkflow.Step, in runner: inout RunnerJob, jobSucceeded: Bool) async -> GitHubActionsStatus {
        var context = runner.context
        context.succeeded = jobSucceeded
        do {
            guard try context.condition(step.condition ?? "success()") else {
                runner.write("Skipped '\(step.name)'")
                return .skipped
            }
            runner.write("##[group]\(step.name)")
            for variable in step.env {
                context.env[variable.name] = try ExpressionTemplate(variable.value).render(in: context)
            }
            context.hashFiles = { [workspace = runner.workspace, home = runner.home] patterns in
                Self.hashFiles(patterns, workspace: workspace, home: home)
            }
            if let script = step.run {
                try await runScript(try ExpressionTemplate(script).render(in: context), step: step, context: context, runner: &runner)
            } else {
                var with: [String: String] = [:]
                for (key, value) in step.with { with[key] = try ExpressionTemplate(value).render(in: context) }
                try await runAction(step.action ?? "", with: with, runner: &runner)
            }
            return .succeeded
        } catch {
            runner.write("##[error]\(Self.describe(error))")
            return .failed
        }
    }

    static func describe(_ error: Error) -> String {
        switch error {
        case let failure as StepFailure: return failure.message
        case let expression as ExpressionError: return expression.message
        default: return String(describing: error)
        }
    }

    func runScript(_ script: String, step: GitHubActionsWorkflow.Step, context: ExpressionContext, runner: inout RunnerJob) async throws {
        let shell = step.shell ?? runner.job.defaults.shell ?? workflow.defaults.shell
        let written = step.workingDirectory ?? runner.job.defaults.workingDirectory ?? workflow.defaults.workingDirectory
        let folder = try written.map { try ExpressionTemplate($0).render(in: context) }
        let directory = folder.map { $0.hasPrefix("/") ? $0 : runner.workspace + "/" + $0 } ?? runner.workspace
        guard FileManager.default.fileExists(atPath: directory) else {
            throw StepFailure(message: "An error occurred trying to start process '/usr/bin/bash' with working directory '\(directory)'. No such file or directory")
        }
        let file = runner.temp + "/step-\(UUID().uuidString).sh"
        // The first line sends standard error to standard output, so that the log keeps their order.
        try Data(("exec 2>&1\n" + script).utf8).write(to: URL(fileURLWithPath: file))
        let arguments: [String]
        switch shell {
        case "bash": arguments = ["bash", "--noprofile", "--norc", "-eo", "pipefail", file]
        case "sh": arguments = ["sh", "-e", file]
        default: arguments = ["bash", "-e", file]
        }
        var environment = environment(for: runner)
        environment.merge(runnerVariables(runner)) { _, new in new }
        environment.merge(context.env) { _, new in new }
        let pathFile = try gitHubPathFile(for: runner)
        environment["GITHUB_PATH"] = pathFile
        environment["PATH"] = Self.path(environment["PATH"], adding: runner.addedPaths)
        let result = try await processes.run(ProcessSpec(executable: arguments[0], arguments: Array(arguments.dropFirst()),
                                                         environment: environment, workingDirectory: directory))
        runner.write(result.outputText + result.errorText)
        applyGitHubPath(pathFile, to: &runner)
        guard result.status.isSuccess else { throw StepFailure(message: "Process completed with \(result.status).") }
    }

    /// GitHub's default variables for a step of `runner`'s job.
    func runnerVariables(_ runner: RunnerJob) -> [String: String] {
        var variables = ["CI": "true", "GITHUB_ACTIONS": "true", "HOME": runner.home, "RUNNER_TEMP": runner.temp,
                         "GITHUB_WORKSPACE": runner.workspace, "RUNNER_OS": runner.context.runner["os"] ?? "Linux"]
        for key in ["sha", "ref", "ref_name", "run_id", "run_number", "run_attempt", "job", "repository", "event_name", "actor"] {
            variables["GITHUB_" + key.uppercased()] = runner.context.github[key]
        }
        return variables
    }

    func runAction(_ action: String, with: [String: String], runner: inout RunnerJob) async throws {
        switch action {
        case "actions/checkout": try await checkout(depth: with["fetch-depth"] ?? "1", runner: &runner)
        case "actions/upload-artifact": try upload(with, runner: &runner)
        case "actions/download-artifact": try download(with, runner: &runner)
        default:
            guard let key = with["key"], !key.isEmpty, let path = with["path"], !path.isEmpty else {
                throw StepFailure(message: "Input required and not supplied: \(with["key"]?.isEmpty == false ? "path" : "key")")
            }
            runner.write("Cache not found for input keys: \(key) (SIMULATION: actions/cache is a no-op, every restore misses and nothing is saved)")
        }
    }

    func checkout(depth: String, runner: inout RunnerJob) async throws {
        guard let depthValue = Int(depth), depthValue >= 0 else { throw StepFailure(message: "The input 'fetch-depth' must be a number, not '\(depth)'") }
        let remote = "refs/remotes/origin/\(branch)"
        var commands = [["-c", "init.defaultBranch=\(branch)", "init", "-q", "."],
                        ["remote", "add", "origin", "file://" + origin]]
        if depthValue == 0 {
            commands += [["fetch", "-q", "--prune", "--tags", "origin", "+refs/heads/*:refs/remotes/origin/*", "+refs/tags/*:refs/tags/*"],
                         ["update-ref", remote, commit]]
        } else {
            commands.append(["fetch", "-q", "--no-tags", "--depth=\(depthValue)", "origin", "+\(commit):\(remote)"])
        }
        commands.append(["checkout", "-q", "--force", "-B", branch, remote])
        var environment = environment(for: runner)
        environment["HOME"] = runner.home
        for arguments in commands {
            runner.write("[command]git " + arguments.joined(separator: " "))
            let result = try await processes.run(ProcessSpec(executable: "git", arguments: arguments, environment: environment,
                                                             workingDirectory: runner.workspace))
            runner.write(result.outputText + result.errorText)
            guard result.status.isSuccess else { throw StepFailure(message: "The process 'git' failed with \(result.status)") }
        }
    }

    func upload(_ with: [String: String], runner: inout RunnerJob) throws {
        let name = with["name"].flatMap { $0.isEmpty ? nil : $0 } ?? "artifact"
        guard let path = with["path"], !path.isEmpty else { throw StepFailure(message: "Input required and not supplied: path") }
        let ifNoFiles = with["if-no-files-found"] ?? "warn"
        guard ["warn", "error", "ignore"].contains(ifNoFiles) else {
            throw StepFailure(message: "Unrecognized if-no-files-found input. Provided: \(ifNoFiles). Available options: warn, error, ignore")
        }
        let glob = WorkflowGlob(path, base: runner.workspace, home: runner.home)
        let (files, base) = glob.files(includeHidden: with["include-hidden-files"] == "true")
        guard !files.isEmpty else {
            let message = "No files were found with the provided path: \(path). No artifacts will be uploaded."
            switch ifNoFiles {
            case "error": throw StepFailure(message: message)
            case "warn": runner.write("##[warning]" + message)
            default: runner.write(message)
            }
            return
        }
        if let failure = try store.upload(name: name, files: files, base: base, job: runner.job.id, attempt: runner.attempt,
                                          overwrite: with["overwrite"] == "true") {
            throw StepFailure(message: failure)
        }
        runner.write("Uploaded artifact '\(name)' (\(files.count) file(s), root \(base)) to the stand-in artifact store")
    }

    func download(_ with: [String: String], runner: inout RunnerJob) throws {
        var path = with["path"].flatMap { $0.isEmpty ? nil : $0 } ?? "."
        if path == "~" || path.hasPrefix("~/") { path = runner.home + path.dropFirst() }
        let destination = path.hasPrefix("/") ? path : runner.workspace + "/" + path
        if let name = with["name"], !name.isEmpty {
            if with["pattern"] != nil { runner.write("##[warning]'pattern' is ignored when 'name' is given") }
            guard try store.download(name, into: destination) else {
                throw StepFailure(message: "Unable to download artifact(s): Artifact not found for name: \(name)")
            }
            runner.write("Downloaded artifact '\(name)' to \(destination)")
            return
        }
        let names = store.names(matching: with["pattern"])
        for name in names {
            _ = try store.download(name, into: with["merge-multiple"] == "true" ? destination : destination + "/" + name)
        }
        runner.write("Downloaded \(names.count) artifact(s) to \(destination)")
    }

    /// A SHA-256 over the files the patterns match (sorted by path), "" when none: stable, as
    /// `hashFiles` is (GitHub hashes each file, then the hashes; any stable value does here).
    static func hashFiles(_ patterns: [String], workspace: String, home: String) -> String {
        let files = WorkflowGlob(patterns.joined(separator: "\n"), base: workspace, home: home).files(includeHidden: true).files
        guard !files.isEmpty else { return "" }
        var hasher = SHA256()
        for file in files {
            hasher.update(data: Data(file.dropFirst(workspace.count).utf8))
            hasher.update(data: FileManager.default.contents(atPath: file) ?? Data())
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
