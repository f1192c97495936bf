import Foundation

/// Acts as soon as a file appears, from a thread of its own.
///
/// Tests that must act at a moment (send a signal once a step has started, cancel a task once
/// its process is up) cannot wait for it with `Task.sleep`: Swift's cooperative pool has one
/// thread per core, and other tests' blocking waits (a process run to its end, a server
/// start-up) can hold every one of them for minutes. The waiting task then resumes only after
/// the moment has passed: in a full-suite run, a lane's 60-second step had already ended when
/// the test got to send its Ctrl-C. A plain thread is scheduled by the kernel alone.
public enum FileWatcher {
    /// Calls `action` on a new thread once `path` exists (polling every 10 ms), or with
    /// `appeared == false` when it has not appeared within `timeout`.
    public static func whenExists(_ path: String, timeout: Duration = .seconds(120),
                                  _ action: @escaping @Sendable (_ appeared: Bool) -> Void) {
        let deadline = ContinuousClock.now + timeout
        let thread = Thread {
            while !FileManager.default.fileExists(atPath: path) {
                guard ContinuousClock.now < deadline else { return action(false) }
                usleep(10_000)
            }
            action(true)
        }
        thread.name = "slipway-test-file-watcher"
        thread.start()
    }
}

/// What /proc says of a process (Linux).
public enum ProcessState {
    /// True once `pid` has exited (a zombie that nobody has reaped yet counts), checking every
    /// 50 ms for up to `limit`. A state check, not a timing one: the limit only stops a test that
    /// would otherwise wait for ever, and is far longer than any process here needs to die.
    public static func hasExited(_ pid: Int32, within limit: Duration = .seconds(60)) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while true {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return kill(pid, 0) != 0 }
            if let close = stat.lastIndex(of: ")"), stat[close...].hasPrefix(") Z") { return true }
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }
}
