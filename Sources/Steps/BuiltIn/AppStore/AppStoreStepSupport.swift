import Basics
import Foundation

/// What the appstore.* steps, apple.notarize and signing.sync share besides their
/// `AppStoreConnection`: masking what they learn while they run, and the build-id/build-number
/// check of the steps that act on an uploaded build.
public enum AppStoreStepSupport {
    /// Checks that exactly one of `build-id` and `build-number` names the build (appstore.submit,
    /// testflight.distribute).
    /// - Throws: `StepError.invalidOption` naming `build-id`, with `problem`.
    static func requireOneBuild(_ options: StepOptions, problem: String) throws {
        guard (try options.string("build-id") == nil) != (try options.string("build-number") == nil) else {
            throw StepError.invalidOption(name: "build-id", problem: problem)
        }
    }

    /// Runs a step's work with its events, outputs and errors masked for the secrets it learns
    /// as it runs (a key read from a file, the tokens made from it), on top of the lane's
    /// declared secrets.
    static func masked(_ context: StepContext,
                       _ body: (StepContext, DerivedSecretMasker) async throws -> StepOutputs) async throws -> StepOutputs {
        let masker = DerivedSecretMasker(forwardingTo: context.events)
        var masked = context
        masked.events = masker
        do {
            return masker.redact(try await body(masked, masker))
        } catch {
            throw masker.redact(error)
        }
    }
}
