import Basics
import Foundation

/// Masks, on top of the lane's secrets, the secrets a step learns while it runs (a key read
/// from a file, a token it was issued), in events, outputs and errors. Events pass through to
/// the lane's sink, which masks the declared secrets as usual.
final class DerivedSecretMasker: StepEventSink, Sendable {
    private let next: any StepEventSink
    private let mask = SecretMask()

    init(forwardingTo next: any StepEventSink) { self.next = next }

    /// Masks these values (and their encoded forms, see `Redactor`) from now on.
    func add(_ values: [String]) { mask.add(values) }

    func redact(_ text: String) -> String { mask.redact(text) }

    func redact(_ outputs: StepOutputs) -> StepOutputs { outputs.mapValues(redact) }

    /// The error itself when its message holds no secret, else `StepError.failed` with the
    /// message masked.
    func redact(_ error: any Error) -> any Error {
        let text = (error as? LocalizedError)?.errorDescription ?? "\(error)"
        let masked = redact(text)
        return masked == text ? error : StepError.failed(masked)
    }

    func log(_ level: LogLevel, _ message: String) { next.log(level, redact(message)) }
    func progress(fraction: Double?, message: String) { next.progress(fraction: fraction, message: redact(message)) }
    func processOutput(_ stream: ProcessStream, line: String) { next.processOutput(stream, line: redact(line)) }
}
