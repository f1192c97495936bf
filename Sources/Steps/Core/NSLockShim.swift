import Foundation

/// A lock with a closure-based API (Foundation's `NSLock`, named for what it is used for here).
final class NSLockShim: @unchecked Sendable {
    private let lock = NSLock()

    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
