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

    /// The directories of `PATH`.
    public var searchPath: [String] {
        (variables["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
    }
}
