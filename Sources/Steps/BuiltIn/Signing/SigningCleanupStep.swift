import Basics
import Foundation
import Signing

/// `signing.cleanup`: removes the temporary keychain `signing.sync` made for a CI run and puts
/// the user's keychain search list and default keychain back as they were (macOS only).
public struct SigningCleanupStep: Step {
    public static let description = StepDescription(
        id: "signing.cleanup",
        summary: "Remove the temporary keychain signing.sync made and restore the keychain search list (macOS only)",
        discussion: """
            For the lane's 'finally:' block. Reads the state file signing.sync wrote beside the \
            keychain (KEYCHAIN.slipway-state.json), sets the user's keychain search list and \
            default keychain back to what they were before, and deletes the keychain with \
            'security delete-keychain'. Running it again once the keychain is gone succeeds and \
            says so. Keychains Slipway did not create are left alone by signing.sync, so this \
            step only ever deletes the path it is given. When the path comes from signing.sync's \
            'keychain' output and that step did not run (an earlier step failed) or made no \
            keychain, there is nothing to remove: the step says so and succeeds. Refused at \
            validation on Linux, where there are no keychains.
            """,
        options: [
            .required("keychain", .string, "The temporary keychain's path, as given to signing.sync."),
        ],
        outputs: [
            OutputSpec("deleted", "true when the keychain was deleted now, false when it was already gone."),
            OutputSpec("search-list", "The keychain search list afterwards, one path a line."),
        ],
        examples: [
            StepExample("Always remove the CI keychain", """
                - signing.cleanup:
                    keychain: build/ci.keychain
                """),
        ],
        platforms: [.macOS]
    )

    /// The keychain; nil when the lane's expression gave no value (signing.sync did not run or
    /// made no keychain): there is nothing to remove. Validation still requires the option.
    let keychain: String?

    public init(options: StepOptions) throws {
        let given = try options.string("keychain")
        keychain = given?.trimmingCharacters(in: .whitespaces).isEmpty == false ? given : nil
        if let keychain, !keychain.contains("${{") && keychain.hasSuffix("/") {
            throw StepError.invalidOption(name: "keychain", problem: "'\(keychain)' is a folder; give the keychain file's path, "
                + "e.g. build/ci.keychain")
        }
    }

    static let nothingToRemove = "no keychain to remove: signing.sync made none in this run (it did not run, or installed elsewhere)"

    public func plan(in context: StepContext) throws -> [Effect] {
        guard let keychain else { return [Effect(.check, Self.nothingToRemove)] }
        let path = context.resolve(keychain)
        return [
            Effect(.process, "security list-keychains -d user -s ... (the search list from before, without \(path))"),
            Effect(.process, "security default-keychain -d user -s ... (when \(path) is the default)"),
            Effect(.delete, context.processSpec("security", ["delete-keychain", path]).commandLine),
        ]
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        guard let keychain else {
            context.events.log(.info, Self.nothingToRemove)
            return ["deleted": "false", "search-list": ""]
        }
        let path = context.resolve(keychain)
        let removal = try await TemporaryKeychain.remove(path: path, runner: context.processRunner, security: "security",
                                                         environment: context.environment.variables,
                                                         fileSystem: context.fileSystem)
        if removal.deletedKeychain {
            context.events.log(.info, "deleted the temporary keychain \(path)")
        } else {
            context.events.log(.info, "the keychain \(path) is already gone; nothing to delete")
        }
        if let restored = removal.restoredDefault { context.events.log(.info, "default keychain set back to \(restored)") }
        if !removal.wasInSearchList {
            context.events.log(.info, "\(path) was not in this machine's keychain search list (made on another runner, or "
                + "removed before): the search list is left as it is")
        } else if !removal.usedStateFile {
            context.events.log(.warning, "no state file '\(TemporaryKeychain.statePath(for: path))' was found: the keychain was "
                + "taken out of the search list, which was otherwise left as it is")
        }
        return ["deleted": removal.deletedKeychain ? "true" : "false", "search-list": removal.searchList.joined(separator: "\n")]
    }
}
