import Basics
import Foundation

/// Finds external step plugins (`slipway-step-NAME` executables) and asks each to describe
/// itself, turning it into a `StepKind`.
public struct PluginLocator: Sendable {
    /// Directories searched in order (pinned tools first, then `PATH`).
    public var directories: [String]
    /// Runs the plugins.
    public var processRunner: any ProcessRunner
    /// The file system.
    public var fileSystem: any FileSystem
    /// The environment plugins run with.
    public var environment: Environment
    /// How long a plugin may take to describe itself.
    public var describeTimeout: Duration
    /// Which plugins may be executed (nil: every one).
    public var trust: PluginTrust?

    /// A locator over `directories`.
    public init(directories: [String], processRunner: any ProcessRunner, fileSystem: any FileSystem,
                environment: Environment, describeTimeout: Duration = .seconds(10), trust: PluginTrust? = nil) {
        self.directories = directories
        self.trust = trust
        self.processRunner = processRunner
        self.fileSystem = fileSystem
        self.environment = environment
        self.describeTimeout = describeTimeout
    }

    /// The executable's path for step `id`, nil when there is none; throws when one exists but
    /// cannot be executed.
    public func executable(for id: String) throws -> String? {
        let name = PluginProtocol.executablePrefix + id
        for directory in directories {
            let candidate = directory + "/" + name
            guard let kind = fileSystem.kind(of: candidate) else { continue }
            if kind == .directory { continue }
            guard fileSystem.isExecutable(candidate) else { throw PluginError.notExecutable(path: candidate) }
            return candidate
        }
        return nil
    }

    /// The plugin's kind for step `id`, or nil when no such plugin exists.
    public func kind(for id: String) async throws -> StepKind? {
        guard let path = try executable(for: id) else { return nil }
        try trust?.check(path, workingDirectory: fileSystem.currentDirectoryPath, searchPath: environment["PATH"])
        let description = try await describe(id: id, executable: path)
        let runner = processRunner
        return StepKind(description: description, origin: .plugin(executable: path)) { options in
            PluginStep(id: id, executable: path, options: options, processRunner: runner)
        }
    }

    /// Every plugin found in the directories, described; broken ones come back as messages.
    public func allPlugins() async -> (kinds: [StepKind], problems: [String]) {
        var ids = Set<String>()
        for directory in directories {
            guard let names = try? fileSystem.contents(ofDirectory: directory) else { continue }
            for name in names where name.hasPrefix(PluginProtocol.executablePrefix) {
                ids.insert(String(name.dropFirst(PluginProtocol.executablePrefix.count)))
            }
        }
        var kinds: [StepKind] = [], problems: [String] = []
        for id in ids.sorted() {
            do {
                if let kind = try await kind(for: id) { kinds.append(kind) }
            } catch {
                problems.append("\(PluginProtocol.executablePrefix)\(id): \(error.localizedDescription)")
            }
        }
        return (kinds, problems)
    }

    private func describe(id: String, executable: String) async throws -> StepDescription {
        let request = PluginProtocol.Request(
            protocol: PluginProtocol.version, action: .describe, step: id, lane: "", options: [:],
            inputs: [:], outputs: [:], workingDirectory: fileSystem.currentDirectoryPath, dryRun: true)
        let spec = ProcessSpec(executable: executable, arguments: [], environment: environment.variables,
                               standardInput: try PluginStep.encode(request))
        let name = (executable as NSString).lastPathComponent
        let result: ProcessResult
        do {
            result = try await withTimeout(describeTimeout) { try await processRunner.run(spec) }
        } catch is TimeoutError {
            throw PluginError.describeFailed(name: name, problem: "did not answer 'describe' within \(DurationParser.format(describeTimeout))")
        } catch {
            throw PluginError.describeFailed(name: name, problem: "could not be started: \(error)")
        }
        guard result.status.isSuccess else {
            throw PluginError.describeFailed(name: name, problem: "exited with \(result.status) when asked to describe itself" + Self.stderrTail(result))
        }
        var description: PluginProtocol.Event?
        for (number, line) in result.outputText.split(separator: "\n").enumerated() where !line.isEmpty {
            guard let event = try? JSONDecoder().decode(PluginProtocol.Event.self, from: Data(line.utf8)) else {
                throw PluginError.describeFailed(name: name, problem: "printed invalid JSON on stdout line \(number + 1): '\(line.prefix(80))'")
            }
            if event.event == "description" { description = event }
        }
        guard let description else {
            throw PluginError.describeFailed(name: name, problem: "printed no 'description' event")
        }
        return try Self.stepDescription(id: id, name: name, from: description)
    }

    static func stderrTail(_ result: ProcessResult) -> String {
        let text = result.errorText.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "" : ": " + String(text.suffix(300))
    }

    static func stepDescription(id: String, name: String, from event: PluginProtocol.Event) throws -> StepDescription {
        let version = event.protocol ?? PluginProtocol.version
        guard version == PluginProtocol.version else {
            throw PluginError.describeFailed(name: name, problem: "speaks protocol \(version), but this Slipway speaks \(PluginProtocol.version). Update the plugin or Slipway.")
        }
        var options: [OptionSpec] = []
        for option in event.options ?? [] {
            guard let type = PluginProtocol.optionType(option.type) else {
                throw PluginError.describeFailed(name: name, problem: "describes option '\(option.name)' with unknown type '\(option.type)'")
            }
            options.append(OptionSpec(name: option.name, type: type, isRequired: option.required ?? false,
                                      defaultValue: option.default, summary: option.summary ?? ""))
        }
        let platforms = Set((event.platforms ?? Platform.allCases.map(\.rawValue)).compactMap(Platform.init(rawValue:)))
        return StepDescription(
            id: id, summary: event.summary ?? "External plugin \(name)", discussion: event.discussion ?? "",
            options: options, outputs: (event.outputs ?? []).map { OutputSpec($0.name, $0.summary ?? "") },
            hasDynamicOutputs: event.outputs == nil,
            examples: (event.examples ?? []).map { StepExample($0.title, $0.yaml) }, platforms: platforms)
    }
}

/// Why a plugin could not be used.
public enum PluginError: Error, LocalizedError, Sendable, Equatable {
    case notExecutable(path: String)
    case describeFailed(name: String, problem: String)
    /// A plugin from the checkout, in a command that runs checkout executables only when asked.
    case untrusted(path: String, sha256: String)
    /// A plugin whose `#!` line runs an interpreter from the checkout (`how` says how it was found).
    case untrustedInterpreter(plugin: String, interpreter: String, how: String, sha256: String)

    public var errorDescription: String? {
        switch self {
        case .notExecutable(let path):
            return "plugin '\(path)' is not executable. Run 'chmod +x \(path)'."
        case .describeFailed(let name, let problem):
            return "plugin '\(name)' \(problem)"
        case .untrusted(let path, let sha256):
            return "plugin '\(path)' comes from the checkout, and this command runs no checkout executable "
                + "unless asked (it would have to run it to learn its options). If you trust this version of it, "
                + "pass --trust-plugins, or add its SHA-256 to the trust file outside the checkout: "
                + "echo '\(sha256)  \(path)' >> ~/.config/slipway/trusted-plugins"
        case .untrustedInterpreter(let plugin, let interpreter, let how, let sha256):
            return "plugin '\(plugin)' would run '\(interpreter)' (\(how)), which comes from the checkout, and this command "
                + "runs no checkout executable unless asked; trusting the plugin does not vouch for its interpreter. "
                + "If you trust this version of it, pass --trust-plugins, or add its SHA-256 to the trust file outside "
                + "the checkout: echo '\(sha256)  \(interpreter)' >> ~/.config/slipway/trusted-plugins"
        }
    }
}

/// Thrown by `withTimeout` when the deadline passes first.
public struct TimeoutError: Error, Sendable {
    /// The limit that passed.
    public var limit: Duration
}

/// Runs `body`, cancelling it and throwing `TimeoutError` when `limit` passes first.
public func withTimeout<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw TimeoutError(limit: limit) }
        guard let value = first else {
            group.cancelAll()
            // Let the cancelled body finish (it stops its processes) before reporting.
            while let _ = try? await group.next() {}
            throw TimeoutError(limit: limit)
        }
        return value
    }
}
