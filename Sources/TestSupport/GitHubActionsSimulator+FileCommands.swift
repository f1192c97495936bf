import Foundation

// SIMULATION — not GitHub. `$GITHUB_PATH`, as GitHub documents it ("Adding a system path",
// workflow commands): a step appends a folder per line to the file `$GITHUB_PATH` names; after
// the step, each line is prepended to PATH for the job's later steps (the latest first).

extension GitHubActionsSimulator {
    /// A fresh, empty `$GITHUB_PATH` file for the next step of `runner`'s job.
    func gitHubPathFile(for runner: RunnerJob) throws -> String {
        let file = runner.temp + "/_runner_file_commands/add_path_\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: file))
        return file
    }

    /// PATH for a step: the folders earlier steps added (the latest first), then `path`.
    static func path(_ path: String?, adding added: [String]) -> String? {
        guard !added.isEmpty else { return path }
        return (added.reversed() + (path.map { [$0] } ?? [])).joined(separator: ":")
    }

    /// Reads what the step wrote to its `$GITHUB_PATH` file into `runner`'s added folders.
    func applyGitHubPath(_ file: String, to runner: inout RunnerJob) {
        guard let data = FileManager.default.contents(atPath: file) else { return }
        for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let folder = line.trimmingCharacters(in: .whitespaces)
            if !folder.isEmpty {
                runner.addedPaths.append(folder)
                runner.write("Added to PATH (\u{24}GITHUB_PATH): \(folder)")
            }
        }
    }
}
