import Foundation

/// Long blocking work (hashing large files) on threads of its own, rather than on Swift
/// concurrency's cooperative pool, which has one thread per core: blocking those would hold up
/// every task meanwhile, such as the ones waiting for child processes.
public enum BlockingWork {
    /// Runs `body` on a new thread and returns (or throws) what it does, without holding a
    /// thread of the cooperative pool meanwhile: for calls that wait on the network or on
    /// another process (libgit2's push, ls-remote and clone, for instance).
    /// `name` names the thread (it shows in debuggers and in /proc).
    public static func run<Result: Sendable>(
        name: String = "slipway-blocking-work", _ body: @escaping @Sendable () throws -> Result
    ) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Swift.Result { try body() }) }
            thread.name = name
            thread.start()
        }
    }

    /// `body` applied to every item, on at most `width` threads at once, one item per call;
    /// items are started in order (put the longest first so that the threads finish together).
    /// The results are in the order of `items`.
    public static func map<Item: Sendable, Result: Sendable>(
        _ items: [Item], width: Int = ProcessInfo.processInfo.activeProcessorCount,
        _ body: @escaping @Sendable (Item) -> Result
    ) async -> [Result] {
        guard !items.isEmpty else { return [] }
        let threads = max(1, min(width, items.count))
        return await withCheckedContinuation { continuation in
            let work = SharedWork(items: items, threads: threads, body: body, continuation: continuation)
            for _ in 0..<threads {
                Thread.detachNewThread { work.runWorker() }
            }
        }
    }
}

/// The state the worker threads share: the next item to take, the results, and how many
/// workers are still running (the last one to finish hands the results over).
private final class SharedWork<Item: Sendable, Result: Sendable>: Sendable {
    private struct State {
        var next = 0
        var running: Int
        var results: [Result?]
    }

    private let items: [Item]
    private let body: @Sendable (Item) -> Result
    private let continuation: CheckedContinuation<[Result], Never>
    private let state: Locked<State>

    init(items: [Item], threads: Int, body: @escaping @Sendable (Item) -> Result,
         continuation: CheckedContinuation<[Result], Never>) {
        self.items = items
        self.body = body
        self.continuation = continuation
        self.state = Locked(State(running: threads, results: Array(repeating: nil, count: items.count)))
    }

    func runWorker() {
        while let index = take() {
            let result = body(items[index])
            state.withLock { $0.results[index] = result }
        }
        let finished: [Result]? = state.withLock { state in
            state.running -= 1
            return state.running == 0 ? state.results.map { $0! } : nil
        }
        if let finished { continuation.resume(returning: finished) }
    }

    private func take() -> Int? {
        state.withLock { state in
            guard state.next < items.count else { return nil }
            defer { state.next += 1 }
            return state.next
        }
    }
}

/// Work started on a thread of its own that a synchronous caller collects later with `join()`,
/// to overlap it with the caller's own work. `join()` blocks: call it only from a thread that is
/// not one of the cooperative pool's (code reached through `BlockingWork.run`, or a test's
/// dedicated thread).
public final class JoinableWork<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var outcome: Result<Value, any Error>?

    /// Starts `body` on a new thread named `name`.
    public init(name: String, _ body: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [self] in
            let result = Result { try body() }
            condition.lock()
            outcome = result
            condition.signal()
            condition.unlock()
        }
        thread.name = name
        thread.start()
    }

    /// Waits for the work to end and returns (or throws) what it did.
    public func join() throws -> Value {
        condition.lock()
        defer { condition.unlock() }
        // off-pool: callers run on threads of their own (see the type's documentation).
        while outcome == nil { condition.wait() }
        guard let outcome else { preconditionFailure("the work ended without an outcome") }
        return try outcome.get()
    }
}
