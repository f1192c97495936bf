import Basics
import Foundation

/// An external plugin as a `StepAction`: sends the request on stdin and turns the NDJSON events
/// on stdout into logs, progress, outputs and a result. A plugin that crashes, exits non-zero,
/// prints invalid JSON or never reports a result fails the step with an error naming it.
struct PluginStep: StepAction {
    let id: String
    let executable: String
    let options: StepOptions
    let processRunner: any ProcessRunner

    var name: String { (executable as NSString).lastPathComponent }

    static func encode(_ request: PluginProtocol.Request) throws -> [UInt8] {
        Array(try JSONFormatting.encoder(pretty: false).encode(request)) + [0x0A]
    }

    func plan(in context: StepContext) async throws -> [Effect] {
        let session = try await exchange(.plan, context: context)
        return session.effects
    }

    func run(in context: StepContext) async throws -> StepOutputs {
        let session = try await exchange(.run, context: context)
        guard let result = session.result else {
            throw StepError.plugin(name: name, problem: "exited without a 'result' event. A plugin must end with {\"event\":\"result\",\"status\":\"success\"}.")
        }
        guard result.status == "success" else {
            throw StepError.plugin(name: name, problem: "reported failure: \(result.message ?? "no message")")
        }
        return session.outputs
    }

    private func exchange(_ action: PluginProtocol.Action, context: StepContext) async throws -> PluginSession {
        let request = PluginProtocol.Request(
            protocol: PluginProtocol.version, action: action, step: id, lane: context.laneName,
            options: options.values, inputs: context.inputs, outputs: context.previousOutputs,
            workingDirectory: context.workingDirectory, dryRun: context.isDryRun)
        var spec = context.processSpec(executable, [])
        spec.standardInput = try Self.encode(request)
        let session = PluginSession(events: context.events, redactor: context.redactor)
        let result = try await processRunner.run(spec) { stream, bytes in session.feed(stream, bytes) }
        session.finish()
        if let problem = session.protocolProblem {
            throw StepError.plugin(name: name, problem: problem)
        }
        switch result.status {
        case .exited(0): break
        case .exited(let code):
            let reason = session.result?.message.map { ": \($0)" } ?? ""
            throw StepError.plugin(name: name, problem: "exited with code \(code)\(reason)")
        case .signalled(let signal):
            throw StepError.plugin(name: name, problem: "crashed (signal \(signal))")
        }
        return session
    }
}

/// The state of one conversation with a plugin: parses its stdout as NDJSON events while they
/// arrive and forwards logs, progress and stderr lines at once.
final class PluginSession: Sendable {
    private struct State {
        // Cut so that a secret is never split between two pieces of a long line (stdout lines
        // that are not JSON events are shown as output).
        var stdout: RedactingLineBuffer
        var stderr: RedactingLineBuffer
        var lineNumber = 0
        var outputs: StepOutputs = [:]
        var effects: [Effect] = []
        var result: PluginProtocol.Event?
        var protocolProblem: String?
    }

    private let events: any StepEventSink
    private let state: Locked<State>

    var outputs: StepOutputs { state.withLock { $0.outputs } }
    var effects: [Effect] { state.withLock { $0.effects } }
    var result: PluginProtocol.Event? { state.withLock { $0.result } }
    var protocolProblem: String? { state.withLock { $0.protocolProblem } }

    init(events: any StepEventSink, redactor: Redactor) {
        self.events = events
        state = Locked(State(stdout: RedactingLineBuffer(redactor: redactor), stderr: RedactingLineBuffer(redactor: redactor)))
    }

    func feed(_ stream: ProcessStream, _ bytes: [UInt8]) {
        state.withLock { state in
            if stream == .standardError {
                for line in state.stderr.append(bytes) { events.processOutput(.standardError, line: line) }
            } else {
                for line in state.stdout.append(bytes) { handle(line, &state) }
            }
        }
    }

    func finish() {
        state.withLock { state in
            for line in state.stdout.finish() { handle(line, &state) }
            for line in state.stderr.finish() { events.processOutput(.standardError, line: line) }
        }
    }

    private func handle(_ line: String, _ state: inout State) {
        state.lineNumber += 1
        guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { return }
        guard let event = try? JSONDecoder().decode(PluginProtocol.Event.self, from: Data(line.utf8)) else {
            if state.protocolProblem == nil {
                state.protocolProblem = "printed invalid JSON on stdout line \(state.lineNumber): '\(line.prefix(80))'. "
                    + "Plugins print one JSON event per line on stdout (logs go to stderr); see docs/plugins.md."
            }
            events.processOutput(.standardOutput, line: line)
            return
        }
        switch event.event {
        case "log":
            events.log(LogLevel(rawValue: event.level ?? "info") ?? .info, event.message ?? "")
        case "progress":
            events.progress(fraction: event.fraction, message: event.message ?? "")
        case "output":
            if let name = event.name { state.outputs[name] = event.value ?? "" }
        case "effect":
            state.effects.append(Effect(Effect.Kind(rawValue: event.kind ?? "other") ?? .other, event.summary ?? event.message ?? ""))
        case "result":
            state.result = event
        default:
            if state.protocolProblem == nil {
                state.protocolProblem = "printed an unknown event '\(event.event)' on stdout line \(state.lineNumber). Known events: log, progress, output, effect, result."
            }
        }
    }
}
