import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// posix_spawn failed with ETXTBSY: the executable is still open for writing somewhere. That is
/// often not the writer's doing: a file written just before (a plugin, a tool just installed) is
/// open for a moment, and a child that another thread spawns in that moment inherits the
/// descriptor until it execs. Worth trying again shortly.
struct TextFileBusy: Error {
    /// The error to report when trying again does not help.
    let error: ProcessError
}

/// A child started with posix_spawn in its own process group, and the thread that reads its
/// output and reaps it. Owns the pipes; `waitForExit` resumes once the child has exited and its
/// output is drained.
final class SpawnedProcess: Sendable {
    let pid: pid_t
    private let stdoutFD: Int32
    private let stderrFD: Int32
    private let captureLimit: Int
    private let exited = Locked(false)

    init(path: String, spec: ProcessSpec, captureLimit: Int) throws {
        self.captureLimit = captureLimit
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1], inPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else {
            throw ProcessError.launchFailed(executable: spec.executable, reason: String(cString: strerror(errno)))
        }
        let wantsInput = spec.standardInput != nil
        if wantsInput, pipe(&inPipe) != 0 {
            throw ProcessError.launchFailed(executable: spec.executable, reason: String(cString: strerror(errno)))
        }
        for fd in outPipe + errPipe + inPipe where fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }

        var actions = SpawnFileActions()
        defer { actions.destroy() }
        if wantsInput {
            actions.dup2(inPipe[0], 0)
        } else {
            actions.open(0, "/dev/null", O_RDONLY)
        }
        actions.dup2(outPipe[1], 1)
        actions.dup2(errPipe[1], 2)
        if let directory = spec.workingDirectory {
            guard actions.chdir(directory) else {
                throw ProcessError.launchFailed(executable: spec.executable,
                                                reason: "this system cannot set a child's working directory")
            }
        }
        var attributes = SpawnAttributes()
        defer { attributes.destroy() }

        let argv = ([path] + spec.arguments).map { strdup($0) } + [nil]
        let envp = spec.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var childPID: pid_t = 0
        let status = posix_spawn(&childPID, path, &actions.raw, &attributes.raw, argv, envp)
        close(outPipe[1]); close(errPipe[1])
        if wantsInput { close(inPipe[0]) }
        guard status == 0 else {
            close(outPipe[0]); close(errPipe[0])
            if wantsInput { close(inPipe[1]) }
            let reason = status == ENOENT ? "no such file" : String(cString: strerror(status))
            if status == ENOENT { throw ProcessError.notFound(executable: spec.executable) }
            if status == ETXTBSY {
                throw TextFileBusy(error: ProcessError.launchFailed(executable: spec.executable, reason: reason))
            }
            throw ProcessError.launchFailed(executable: spec.executable, reason: reason)
        }
        pid = childPID
        stdoutFD = outPipe[0]
        stderrFD = errPipe[0]
        if wantsInput, let input = spec.standardInput {
            let fd = inPipe[1]
            // Write on a thread of its own so a child that does not read cannot block us.
            Thread.detachNewThread {
                signal(SIGPIPE, SIG_IGN)
                // A child that closes its input early ends the writing (EPIPE): not an error here.
                try? FileDescriptorIO.writeAll(fd, input)
                close(fd)
            }
        }
    }

    /// Reads both pipes until the child has exited and its output is drained, then reaps it.
    func waitForExit(output: ProcessOutputHandler?) async -> ProcessResult {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { [self] in
                continuation.resume(returning: pump(output: output))
            }
        }
    }

    private func pump(output: ProcessOutputHandler?) -> ProcessResult {
        var captured: [[UInt8]] = [[], []]
        var open = [true, true]
        let fds = [stdoutFD, stderrFD]
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var status: TerminationStatus?
        var quietSinceExit = 0
        while open[0] || open[1] {
            var polls = [pollfd(fd: open[0] ? fds[0] : -1, events: Int16(POLLIN), revents: 0),
                         pollfd(fd: open[1] ? fds[1] : -1, events: Int16(POLLIN), revents: 0)]
            // off-pool: pump runs on the thread waitForExit starts for it.
            let ready = poll(&polls, 2, 100)
            if ready < 0 && errno != EINTR { break }
            if ready <= 0 {
                // A grandchild may hold the pipes open after the child exited: stop waiting
                // for it once the child is gone and nothing has arrived for a while.
                if status == nil { status = reap(blocking: false) }
                if status != nil { quietSinceExit += 1; if quietSinceExit >= 3 { break } }
                continue
            }
            quietSinceExit = 0
            for index in 0..<2 where open[index] && polls[index].revents != 0 {
                // A read error ends that pipe, as its end does.
                let count = (try? buffer.withUnsafeMutableBytes { try FileDescriptorIO.read(fds[index], into: $0) }) ?? 0
                if count == 0 { open[index] = false; continue }
                let chunk = Array(buffer[0..<count])
                if captured[index].count < captureLimit {
                    captured[index].append(contentsOf: chunk.prefix(captureLimit - captured[index].count))
                }
                output?(index == 0 ? .standardOutput : .standardError, chunk)
            }
        }
        close(stdoutFD); close(stderrFD)
        let final = status ?? reap(blocking: true) ?? .exited(-1)
        return ProcessResult(status: final, standardOutput: captured[0], standardError: captured[1])
    }

    private func reap(blocking: Bool) -> TerminationStatus? {
        var raw: Int32 = 0
        while true {
            // off-pool: reap is called from pump, on its own thread.
            let result = waitpid(pid, &raw, blocking ? 0 : WNOHANG)
            if result == -1 && errno == EINTR { continue }
            if result <= 0 { return result == 0 ? nil : .exited(-1) }
            break
        }
        exited.withLock { $0 = true }
        let signal = raw & 0x7f
        if signal == 0 { return .exited((raw >> 8) & 0xff) }
        return .signalled(signal)
    }

    /// Sends SIGTERM to the child's whole process group, and SIGKILL after `grace`.
    func terminateGroup(grace: Duration) {
        let group = pid
        kill(-group, SIGTERM)
        let nanos = grace.components.seconds * 1_000_000_000 + grace.components.attoseconds / 1_000_000_000
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanos))) { [self] in
            // The group may outlive its leader (a background grandchild): kill it regardless.
            kill(-group, SIGKILL)
            _ = exited.value
        }
    }
}
