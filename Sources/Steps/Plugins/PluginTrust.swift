import Basics
import Foundation
import PBXProj
import Publish

/// Which step plugins Slipway may execute.
///
/// A plugin found in the project (`.slipway/bin/`, or any folder of `PATH` inside the project) is
/// checkout content: on a pull request, whoever wrote the branch wrote it. A real `slipway run`
/// executes it because the lane asks for it; the commands that only check (`validate`, `steps`,
/// `step`, `ci export`, `ci check`, `run --dry-run`) execute it only when the user opted in,
/// with `--trust-plugins` or by listing the plugin's SHA-256 in the trust file, which lives
/// outside the checkout (`trustFile(environment:)`). Plugins outside the project (pinned tools,
/// `PATH` folders of the machine) were put there by the machine's owner and run as before.
///
/// What a plugin runs through its `#!` line is checked too (`PluginInterpreter`): an
/// interpreter that is checkout content — named by the line, or found by `#!/usr/bin/env X`
/// through a `PATH` folder inside the project — runs in those commands only when its own
/// digest is trusted, also for a trusted plugin and for a plugin from outside the checkout.
public struct PluginTrust: Sendable {
    /// The project's folder (the checkout), absolute.
    public var projectDirectory: String
    /// Whether plugins from the checkout run without being listed.
    public var runsCheckoutPlugins: Bool
    /// SHA-256 digests (lower-case hex) of plugin executables the user trusts.
    public var trustedDigests: Set<String>

    /// A policy for the project at `projectDirectory`.
    public init(projectDirectory: String, runsCheckoutPlugins: Bool, trustedDigests: Set<String> = []) {
        self.projectDirectory = projectDirectory
        self.runsCheckoutPlugins = runsCheckoutPlugins
        self.trustedDigests = trustedDigests
    }

    /// Every plugin may run (tests, and callers that have no checkout).
    public static func everything(projectDirectory: String) -> PluginTrust {
        PluginTrust(projectDirectory: projectDirectory, runsCheckoutPlugins: true)
    }

    /// The trust file: `$XDG_CONFIG_HOME/slipway/trusted-plugins`, else
    /// `$HOME/.config/slipway/trusted-plugins`; nil without either variable.
    public static func trustFile(environment: Environment) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/slipway/trusted-plugins" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.config/slipway/trusted-plugins" }
        return nil
    }

    /// A policy that reads the trust file for the project at `projectDirectory`. A trust file
    /// inside the project is ignored: the checkout cannot vouch for itself.
    ///
    /// The file holds one digest a line, optionally followed by white space and a note (the
    /// format `sha256sum` prints); `#` starts a comment.
    public static func load(projectDirectory: String, runsCheckoutPlugins: Bool, environment: Environment,
                            fileSystem: any FileSystem) -> PluginTrust {
        var trust = PluginTrust(projectDirectory: projectDirectory, runsCheckoutPlugins: runsCheckoutPlugins)
        guard !runsCheckoutPlugins, let file = trustFile(environment: environment),
            !isInside(resolved(file), resolved(projectDirectory)),
            let bytes = try? fileSystem.read(file)
        else { return trust }
        for line in String(decoding: bytes.prefix(1 << 20), as: UTF8.self).split(whereSeparator: \.isNewline) {
            let word = line.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? ""
            if word.count == 64, word.allSatisfy(\.isHexDigit) { trust.trustedDigests.insert(word.lowercased()) }
        }
        return trust
    }

    /// Whether the executable at `path` comes from the checkout: it, or the real file it links
    /// to, lies inside the project. A relative `path` is taken from `workingDirectory`.
    public func isCheckoutContent(_ path: String, workingDirectory: String) -> Bool {
        let project = Self.resolved(projectDirectory)
        let absolute = path.hasPrefix("/") ? path : workingDirectory + "/" + path
        return Self.isInside(ProjectPath.normalize(absolute), project) || Self.isInside(Self.resolved(absolute), project)
            || Self.isInside(Self.resolved(ProjectPath.parent(absolute)), project)
    }

    /// Throws `PluginError.untrusted` when `path` may not be executed under this policy, and
    /// `PluginError.untrustedInterpreter` when what it would run through its `#!` line may not:
    /// an interpreter from the checkout, named by the line or found by `#!/usr/bin/env X` on
    /// `searchPath` (the `PATH` the plugin runs with), must be trusted itself, whoever wrote the
    /// plugin. A relative `path` is taken from `workingDirectory` (the file system's current
    /// directory).
    public func check(_ path: String, workingDirectory: String, searchPath: String? = nil) throws {
        guard !runsCheckoutPlugins else { return }
        if isCheckoutContent(path, workingDirectory: workingDirectory) {
            let digest = Self.digest(path)
            guard trustedDigests.contains(digest) else { throw PluginError.untrusted(path: displayPath(path), sha256: digest) }
        }
        let absolute = path.hasPrefix("/") ? path : workingDirectory + "/" + path
        for interpreter in PluginInterpreter.chain(of: absolute, path: searchPath, workingDirectory: workingDirectory)
        where isCheckoutContent(interpreter.path, workingDirectory: workingDirectory) {
            let digest = Self.digest(interpreter.path)
            guard trustedDigests.contains(digest) else {
                throw PluginError.untrustedInterpreter(plugin: displayPath(path), interpreter: displayPath(interpreter.path),
                                                       how: interpreter.how, sha256: digest)
            }
        }
    }

    private static func digest(_ path: String) -> String {
        (try? FileHasher(streams: LocalFileStreams()).sha256(of: path)) ?? ""
    }

    private func displayPath(_ path: String) -> String {
        let project = ProjectPath.normalize(projectDirectory)
        return path.hasPrefix(project + "/") ? String(path.dropFirst(project.count + 1)) : path
    }

    static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return ProjectPath.normalize(path) }
        defer { free(real) }
        return String(cString: real)
    }

    static func isInside(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }
}
