import Foundation

/// Carries SIGINT/SIGTERM into a run: the first interruption cancels the running steps (their
/// process groups are stopped) and the `finally` steps still run; a second one cancels those too.
public final class Interruption: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var handlers: [Int: (Int) -> Void] = [:]
    private var nextToken = 0

    /// A fresh interruption, not triggered.
    public init() {}

    /// How many times it was triggered.
    public var triggerCount: Int { lock.withLock { count } }

    /// Triggers it (from a signal handler's dispatch source, or a test).
    public func trigger() {
        let (current, callbacks) = lock.withLock { () -> (Int, [(Int) -> Void]) in
            count += 1
            return (count, Array(handlers.values))
        }
        for callback in callbacks { callback(current) }
    }

    /// Calls `handler` with the trigger count on each trigger until the token is removed.
    func register(_ handler: @escaping (Int) -> Void) -> Int {
        lock.withLock {
            nextToken += 1
            handlers[nextToken] = handler
            return nextToken
        }
    }

    func unregister(_ token: Int) {
        _ = lock.withLock { handlers.removeValue(forKey: token) }
    }
}
