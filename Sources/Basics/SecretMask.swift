/// Secrets learned while a command or a step runs (a key it loads, a token it mints, the parts
/// of a webhook URL), masked from the moment they are added. Several tasks add and read it at
/// once; the redactor is rebuilt only when a new value arrives.
public final class SecretMask: Sendable {
    private struct State {
        var secrets: Set<String> = []
        var redactor = Redactor.none
    }

    private let state = Locked(State())

    /// A mask holding nothing yet.
    public init() {}

    /// Masks these values (and their encoded forms, see `Redactor`) from now on; values under
    /// 3 characters are left out, as `Redactor` does.
    public func add(_ values: [String]) {
        state.withLock { state in
            let before = state.secrets.count
            state.secrets.formUnion(values.filter { $0.count >= 3 })
            if state.secrets.count != before { state.redactor = Redactor(secrets: state.secrets.sorted()) }
        }
    }

    /// The redactor for every value added so far.
    public var redactor: Redactor { state.withLock { $0.redactor } }

    /// `text` with every value added so far masked.
    public func redact(_ text: String) -> String { redactor.redact(text) }
}

/// A `TextOutput` that masks a `SecretMask`'s values in everything written, before `base` sees
/// it. Put it outside `TerminalSafeOutput` (redact first): the terminal filter drops control
/// characters, which would otherwise join an encoded form (UTF-16's zero bytes) back into the
/// value after the redactor looked.
public struct RedactingOutput: TextOutput {
    /// Where the masked text goes.
    public let base: any TextOutput
    /// What is masked.
    public let mask: SecretMask

    /// Wraps `base`.
    public init(_ base: any TextOutput, mask: SecretMask) {
        self.base = base
        self.mask = mask
    }

    public func write(_ text: String) { base.write(mask.redact(text)) }
}
