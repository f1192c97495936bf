import Foundation

/// Values a command keeps until the process exits instead of freeing them on its way out.
///
/// A command that reads a whole history (ten thousand commits, each with a message, two
/// signatures and its parents) and prints one line would otherwise spend milliseconds releasing
/// it object by object just before exiting, where the kernel takes the memory back at once.
/// (git never frees at exit, for the same reason.)
public enum ProcessLifetime {
    private static let kept = Locked<[Any]>([])

    /// Keeps `value` (and everything it refers to) alive until the process exits.
    public static func keepUntilExit(_ value: Any) {
        kept.withLock { $0.append(value) }
    }
}
