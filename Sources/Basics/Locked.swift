import Foundation

/// A value that several threads share, reached only through `withLock`.
///
/// `Synchronization.Mutex` does this job but needs macOS 15, and the package supports macOS 13,
/// so this is the same idea over Foundation's `NSLock` (on Linux and macOS). It is
/// `@unchecked Sendable` because the compiler cannot see what makes it safe: the lock is held for
/// every read and write of the value, and the value is never handed out by reference. Like
/// `Mutex`, it does not require `Value` to be `Sendable`; a caller that holds a non-Sendable
/// value in it must not let that value (or a reference into it) escape the closure.
///
/// ```swift
/// let seen = Locked<Set<String>>([])
/// let isNew = seen.withLock { $0.insert(name).inserted }
/// ```
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var protected: Value

    /// A lock around `value`.
    public init(_ value: Value) { protected = value }

    /// Runs `body` with the value while holding the lock and returns what `body` returns.
    /// Don't call `withLock` on the same instance from inside `body`: the lock is not recursive.
    /// - Throws: Whatever `body` throws (the lock is released first).
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&protected)
    }

    /// A copy of the value, read under the lock.
    public var value: Value { withLock { $0 } }
}
