import Foundation

/// What installing signing files or keychains throws. Each case names the file, keychain or
/// `security` subcommand and says what to do. No case carries a password: command lines are
/// shown with every password replaced by `***`, and `security`'s own messages pass through the
/// installer's redactor first.
public enum SigningInstallError: Error, Equatable, Sendable {
    /// A file or folder could not be written; `detail` is the system's reason.
    case cannotWrite(path: String, detail: String)
    /// `security SUBCOMMAND` failed; `command` is the masked command line, `message` its
    /// (masked) standard error.
    case securityFailed(subcommand: String, command: String, status: String, message: String)
    /// `security` could not be started at all.
    case securityUnavailable(executable: String, detail: String)
    /// A profile's UUID is not usable as a file name (it has characters other than letters,
    /// digits and dashes), so it is not installed.
    case unsafeProfileUUID(uuid: String, profile: String)
    /// A keychain exists at `path` but Slipway did not create it (there is no `stateFile`), so
    /// it is neither used as a temporary keychain nor ever deleted.
    case foreignKeychain(path: String, stateFile: String)
    /// The state file beside a temporary keychain is not what Slipway writes.
    case unreadableKeychainState(path: String, detail: String)
}

extension SigningInstallError: LocalizedError {
    /// A message that names the subject and says what to do.
    public var errorDescription: String? {
        switch self {
        case let .cannotWrite(path, detail):
            return "Could not write '\(path)': \(detail). Check that the folder is writable and the disk has room."
        case let .securityFailed(subcommand, command, status, message):
            let said = message.isEmpty ? "" : ": \(message)"
            return "'security \(subcommand)' failed with \(status)\(said) (ran: \(command)). " + Self.hint(subcommand)
        case let .securityUnavailable(executable, detail):
            return "Could not run '\(executable)' (\(detail)). Keychains are macOS only: on Linux install into a directory instead."
        case let .unsafeProfileUUID(uuid, profile):
            return "The provisioning profile '\(profile)' has the UUID '\(uuid)', which is not a safe file name (only letters, "
                + "digits and dashes are). Download the profile again from the Apple Developer portal."
        case let .foreignKeychain(path, stateFile):
            return "A keychain already exists at '\(path)' and Slipway did not create it (there is no '\(stateFile)'). "
                + "Choose another path for the temporary keychain, or install into this one as an existing keychain."
        case let .unreadableKeychainState(path, detail):
            return "'\(path)' is not a keychain state file Slipway wrote (\(detail)). Delete it and remove the keychain "
                + "with 'security delete-keychain'; check the keychain search list with 'security list-keychains -d user'."
        }
    }

    static func hint(_ subcommand: String) -> String {
        switch subcommand {
        case "create-keychain":
            return "If a keychain with this path exists and is not Slipway's, choose another path or delete it."
        case "unlock-keychain", "set-key-partition-list":
            return "Check the keychain password."
        case "import":
            return "Check that the keychain exists and is unlocked, and that the identity is a valid PKCS#12."
        default:
            return "Run the command by hand to see more."
        }
    }
}
