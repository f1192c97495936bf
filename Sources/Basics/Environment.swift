import Foundation

/// Environment variables, passed in explicitly so that code never reads the process's
/// environment behind a caller's back (tests hand in their own).
public struct Environment: Sendable, Hashable {
    /// The variables.
    public var variables: [String: String]

    /// Wraps a dictionary of variables.
    public init(_ variables: [String: String] = [:]) {
        self.variables = variables
    }

    /// The environment this process was started with.
    public static var current: Environment {
        Environment(ProcessInfo.processInfo.environment)
    }

    /// The value of a variable, or nil.
    public subscript(name: String) -> String? {
        get { variables[name] }
        set { variables[name] = newValue }
    }

    /// This environment with `other`'s variables laid over it.
    public func merging(_ other: [String: String]) -> Environment {
        Environment(variables.merging(other) { _, new in new })
    }

    /// True when running under GitHub Actions.
    public var isGitHubActions: Bool { variables["GITHUB_ACTIONS"] == "true" }

    /// Slipway's cache folder: `$SLIPWAY_CACHE_DIR`, else `$XDG_CACHE_HOME/slipway`, else
    /// `~/.cache/slipway` (tool installs, manifests, signing storage clones).
    public var slipwayCacheDirectory: String {
        if let explicit = self["SLIPWAY_CACHE_DIR"], !explicit.isEmpty { return explicit }
        if let xdg = self["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/slipway" }
        let home = self["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.cache/slipway"
    }

    /// The directories of `PATH`.
    public var searchPath: [String] {
        (variables["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
    }
}
