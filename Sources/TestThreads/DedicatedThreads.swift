import Foundation
// Testing is on the search path only when tests are built: a plain `swift build` builds this
// target too (SwiftPM builds every target), and must not fail for want of it.
#if canImport(Testing)
import Testing

/// Runs a suite's tests on threads of their own instead of Swift concurrency's cooperative pool.
///
/// The pool has one thread per core (two on CI). Tests block: they run `git` and `slipway` to
/// their end, start servers and wait for them, hash files. On the pool, two such tests hold
/// every thread, and any task waiting to resume — another test's, or the product's own — waits
/// behind them for minutes; a test that then measures time, or acts "after 100 ms", measures
/// the scheduler instead of the product. With this trait a suite's tests run on
/// `TestThreadPool.shared`, which starts a new thread whenever every one of its threads is busy,
/// so blocking in a test never holds up anything else.
///
/// At most `TestSlots.shared.width` tests run at once (twice the cores), as many as the pool
/// used to run, so that a machine with two cores is not asked to run the whole suite at once.
/// Waiting for a slot suspends; it blocks no thread.
///
/// Every suite in `Tests/` carries it (`BlockingCallsTests` checks that).
public struct DedicatedThreadsTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        guard !test.isSuite else { return try await function() }
        await TestSlots.shared.acquire()
        do {
            try await withTaskExecutorPreference(TestThreadPool.shared) {
                try await function()
            }
        } catch {
            await TestSlots.shared.release()
            throw error
        }
        await TestSlots.shared.release()
    }
}

extension Trait where Self == DedicatedThreadsTrait {
    /// Runs the suite's tests on threads of their own, off the cooperative pool.
    public static var dedicatedThreads: Self { DedicatedThreadsTrait() }
}
#endif

/// A counting semaphore for tasks: `acquire` suspends (never blocks) until a slot is free.
public actor TestSlots {
    /// The slots the `dedicatedThreads` trait shares between all tests.
    public static let shared: TestSlots = {
        TestStateHome.install()
        return TestSlots(width: max(2, 2 * ProcessInfo.processInfo.activeProcessorCount))
    }()

    /// How many holders may run at once.
    public let width: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Slots for `width` holders at once.
    public init(width: Int) { self.width = width }

    /// Takes a slot, waiting for one to be released when all are taken.
    public func acquire() async {
        if running < width {
            running += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Gives a slot back, handing it straight to the longest waiter if there is one.
    public func release() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}

/// A task executor whose jobs run on plain threads: an idle thread takes the next job, and a new
/// thread starts whenever a job arrives and none is idle. Threads are kept for later jobs.
public final class TestThreadPool: TaskExecutor, @unchecked Sendable {
    /// The pool the `dedicatedThreads` trait runs tests on.
    public static let shared = TestThreadPool()

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var idle = 0
    private var started = 0

    /// How many threads the pool has started so far.
    public var threadCount: Int { condition.withLock { started } }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        if jobs.count > idle {
            started += 1
            let thread = Thread { [self] in work() }
            thread.name = "slipway-test-\(started)"
            thread.start()
        } else {
            condition.signal()
        }
        condition.unlock()
    }

    private func work() {
        let executor = asUnownedTaskExecutor()
        condition.lock()
        while true {
            while jobs.isEmpty {
                idle += 1
                condition.wait()
                idle -= 1
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: executor)
            condition.lock()
        }
    }
}

/// Slipway keeps a per-user key and state under `$XDG_STATE_HOME/slipway` (signed sync and run
/// journals). Tests must not leave one in the home folder of whoever runs them, so the first test
/// to start points `XDG_STATE_HOME` at a folder of this test process, which every `slipway` the
/// tests start inherits, and which is removed when the process exits. It is set before any test
/// body runs (every test waits for `TestSlots.shared`), so no test reads the environment while it
/// changes. A test that sets `XDG_STATE_HOME` itself is left alone.
enum TestStateHome {
    static func install() {
        var template = Array((NSTemporaryDirectory() + "/slipway-test-state-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { return }
        let folder = String(cString: made)
        setenv("XDG_STATE_HOME", folder, 1)
        folderToRemove = folder
        atexit {
            if let folder = TestStateHome.folderToRemove { try? FileManager.default.removeItem(atPath: folder) }
        }
    }

    nonisolated(unsafe) static var folderToRemove: String?
}
