import Basics
import Foundation

/// Carries SIGINT/SIGTERM into a run: the first interruption cancels the running steps (their
/// process groups are stopped) and the `finally` steps still run; a second one cancels those too.
public final class Interruption: Sendable {
    private struct State {
        var count = 0
        var handlers: [Int: (Int) -> Void] = [:]
        var nextToken = 0
    }

    private let state = Locked(State())

    /// A fresh interruption, not triggered.
    public init() {}

    /// How many times it was triggered.
    public var triggerCount: Int { state.withLock { $0.count } }

    /// Triggers it (from a signal handler's dispatch source, or a test).
    public func trigger() {
        let (current, callbacks) = state.withLock { state -> (Int, [(Int) -> Void]) in
            state.count += 1
            return (state.count, Array(state.handlers.values))
        }
        for callback in callbacks { callback(current) }
    }

    /// Calls `handler` with the trigger count on each trigger until the token is removed.
    func register(_ handler: @escaping (Int) -> Void) -> Int {
        state.withLock { state in
            state.nextToken += 1
            state.handlers[state.nextToken] = handler
            return state.nextToken
        }
    }

    func unregister(_ token: Int) {
        _ = state.withLock { $0.handlers.removeValue(forKey: token) }
    }
}
