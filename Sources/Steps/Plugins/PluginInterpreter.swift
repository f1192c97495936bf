import Foundation

/// The interpreter a script's `#!` line makes the kernel run, and for `#!/usr/bin/env X` the
/// `X` that `env` finds through `PATH`: what else runs when a plugin runs.
///
/// A plugin's digest vouches for its own bytes only. `#!/usr/bin/env python3` hands the choice of
/// `python3` to `PATH`, and a `PATH` folder inside the checkout can supply one; so `PluginTrust`
/// checks these executables as it checks the plugin.
struct PluginInterpreter: Equatable, Sendable {
    /// The executable, absolute.
    var path: String
    /// How it was found, for messages: "named by its #! line" or "found by env on PATH".
    var how: String

    /// The kernel reads at most this much of a `#!` line (Linux's `BINPRM_BUF_SIZE`).
    static let lineLimit = 256
    /// Interpreters that are scripts themselves are followed this far (Linux stops at 4 too).
    static let depthLimit = 4

    /// What running `executable` also runs: its interpreter, and `env`'s command, in order,
    /// following interpreters that are scripts up to `depthLimit`. Relative paths (a relative
    /// `#!` interpreter, an empty or relative `PATH` folder) are taken from `workingDirectory`.
    static func chain(of executable: String, path: String?, workingDirectory: String) -> [PluginInterpreter] {
        var found: [PluginInterpreter] = []
        var current = executable
        for _ in 0..<depthLimit {
            guard let words = shebang(of: current), let interpreter = words.first else { break }
            let interpreterPath = absolute(interpreter, from: workingDirectory)
            found.append(PluginInterpreter(path: interpreterPath, how: current == executable ? "named by its #! line" : "named by an interpreter's #! line"))
            if (interpreter as NSString).lastPathComponent == "env",
               let command = envCommand(Array(words.dropFirst())),
               let resolved = resolve(command, path: path, workingDirectory: workingDirectory) {
                found.append(PluginInterpreter(path: resolved, how: current == executable ? "found by its #!/usr/bin/env on PATH" : "found by an interpreter's env on PATH"))
                current = resolved
            } else {
                current = interpreterPath
            }
        }
        return found
    }

    /// The words of `file`'s `#!` line (interpreter first), nil when it has none.
    static func shebang(of file: String) -> [String]? {
        // Only a regular file: opening a FIFO from the checkout would wait forever. The first line
        // of an executable the trust check is about to judge, wherever it lies (checkout or PATH),
        // read to at most `lineLimit` bytes.
        // door: a plugin's #! line, bounded, regular files only; the plugin itself is the subject of the trust check
        guard isRegularFile(file), let handle = FileHandle(forReadingAtPath: file) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: lineLimit), head.starts(with: Array("#!".utf8)) else { return nil }
        let line = head.dropFirst(2).prefix { $0 != UInt8(ascii: "\n") }
        let words = String(decoding: line, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        return words.isEmpty ? nil : words.map(String.init)
    }

    /// The command `env` runs for these arguments (after options, `-S` splitting and
    /// `NAME=VALUE` assignments); nil when there is none.
    static func envCommand(_ arguments: [String]) -> String? {
        let takesValue: Set<String> = ["-u", "--unset", "-C", "--chdir", "-P"]
        var skipNext = false
        for word in arguments {
            if skipNext { skipNext = false; continue }
            if takesValue.contains(word) { skipNext = true; continue }
            if word.hasPrefix("-") { continue }
            if word.contains("="), !word.hasPrefix("=") { continue }
            return word
        }
        return nil
    }

    /// Where `env` finds `command`: itself when it holds a `/`, else the first executable file
    /// of that name in `path`'s folders.
    static func resolve(_ command: String, path: String?, workingDirectory: String) -> String? {
        if command.contains("/") { return absolute(command, from: workingDirectory) }
        let folders = (path ?? "/bin:/usr/bin").split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        for folder in folders {
            let candidate = absolute(folder.isEmpty ? "." : folder, from: workingDirectory) + "/" + command
            if isRegularFile(candidate), access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Whether `path` is, or links to, a regular file (what `execve` and `env` would run).
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    private static func absolute(_ path: String, from workingDirectory: String) -> String {
        path.hasPrefix("/") ? path : workingDirectory + "/" + path
    }
}
