import ArgumentParser
import Basics
import Foundation
import Networking
import Pins

extension CommandEnvironment {
    /// The Pins context for this project; `online` adds the HTTP client (lock, install), with
    /// the download limits `SLIPWAY_DOWNLOAD_MAX_SIZE` and `SLIPWAY_DOWNLOAD_STALL_TIMEOUT` set.
    /// - Throws: `HTTPError.invalidLimit` when one of those holds no limit.
    func pinsContext(online: Bool) throws -> PinsContext {
        PinsContext(projectDirectory: projectDirectory, fileSystem: fileSystem, processRunner: processRunner,
                    environment: environment,
                    http: online ? SystemHTTPClient(limits: try HTTPTransferLimits(environment: environment)) : nil)
    }

    /// Prints `value` as pretty JSON with sorted keys.
    func printJSON<T: Encodable>(_ value: T) throws {
        print(String(decoding: try JSONFormatting.encoder().encode(value), as: UTF8.self))
    }
}

/// Prints lock and install progress: live, rewritten lines on a terminal; a line per step
/// elsewhere (CI logs).
final class PinsProgressPrinter: Sendable {
    private struct State {
        var liveLine = false
        var lastPercent: [String: Int] = [:]
    }

    private let env: CommandEnvironment
    private let state = Locked(State())

    init(env: CommandEnvironment) {
        self.env = env
    }

    /// The handler to pass to the locker or installer.
    var handler: PinsEventHandler { { [self] event in state.withLock { show(event, &$0) } } }

    /// Ends a live line, so that what follows starts on a fresh one.
    func finish() {
        state.withLock { state in
            if state.liveLine { env.standardOutput.write("\n") }
            state.liveLine = false
        }
    }

    private func show(_ event: PinsEvent, _ state: inout State) {
        let style = env.style
        switch event {
        case let .downloading(tool, _, progress):
            guard style.interactive, let fraction = progress.fraction else { return }
            let percent = Int(fraction * 100)
            guard state.lastPercent[tool] != percent else { return }
            state.lastPercent[tool] = percent
            env.standardOutput.write("\r\u{1B}[2K  downloading \(tool) … \(percent)%")
            state.liveLine = true
        case let .resolving(tool):
            line(&state, "  resolving \(tool) …", live: true)
        case let .building(tool, command):
            line(&state, "  building \(tool): \(command)", live: true)
        case let .kept(tool, version):
            line(&state, style.paint("  kept      ", .dim) + "\(tool) \(version)")
        case let .resolved(tool, version):
            line(&state, style.paint("  locked    ", .green) + "\(tool) \(version)")
        case let .alreadyInstalled(tool, version):
            line(&state, style.paint("  ok        ", .dim) + "\(tool) \(version) (already installed)")
        case let .installed(tool, version, path):
            line(&state, style.paint("  installed ", .green) + "\(tool) \(version) → \(path)")
        case let .removedLeftovers(count):
            line(&state, "  removed \(count) leftover folder(s) of an interrupted install")
        case let .recordedChecksum(tool, platform):
            line(&state, "  recorded  the \(platform) checksum of \(tool) in Toolfile.lock (commit it)")
        }
    }

    /// Prints a line; a `live` one is rewritten by the next line on a terminal.
    private func line(_ state: inout State, _ text: String, live: Bool = false) {
        if env.style.interactive {
            env.standardOutput.write("\r\u{1B}[2K" + text + (live ? "" : "\n"))
            state.liveLine = live
        } else if !live || text.contains("building") {
            env.standardOutput.write(text + "\n")
        }
    }
}
