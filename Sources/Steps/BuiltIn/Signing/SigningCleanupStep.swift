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
            step only ever deletes the path it is given. Refused at validation on Linux, where \
            there are no keychains.
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

    let keychain: String

    public init(options: StepOptions) throws {
        keychain = try options.requiredString("keychain")
        if keychain.trimmingCharacters(in: .whitespaces).isEmpty {
            throw StepError.invalidOption(name: "keychain", problem: "is empty; give the keychain path signing.sync used")
        }
        if !keychain.contains("${{") && keychain.hasSuffix("/") {
            throw StepError.invalidOption(name: "keychain", problem: "'\(keychain)' is a folder; give the keychain file's path, "
                + "e.g. build/ci.keychain")
        }
    }

    public func plan(in context: StepContext) throws -> [Effect] {
        let path = context.resolve(keychain)
        return [
            Effect(.process, "security list-keychains -d user -s ... (the search list from before, without \(path))"),
            Effect(.process, "security default-keychain -d user -s ... (when \(path) is the default)"),
            Effect(.delete, context.processSpec("security", ["delete-keychain", path]).commandLine),
        ]
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
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
        if !removal.usedStateFile {
            context.events.log(.warning, "no state file '\(TemporaryKeychain.statePath(for: path))' was found: the keychain was "
                + "taken out of the search list, which was otherwise left as it is")
        }
        return ["deleted": removal.deletedKeychain ? "true" : "false", "search-list": removal.searchList.joined(separator: "\n")]
    }
}
