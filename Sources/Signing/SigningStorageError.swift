import Foundation

/// Everything the Signing module throws. Each case names the file, storage or value it is about;
/// `errorDescription` says what to do. No case ever carries a passphrase or decrypted content.
public enum SigningStorageError: Error, Equatable, Sendable {
    /// The passphrase does not open `file` (its key check failed before any decryption).
    case wrongPassphrase(file: String)
    /// `file`'s authentication tag did not verify: it was altered (or, for a match v2 file,
    /// whose format cannot tell the two apart, the passphrase is wrong).
    case tampered(file: String, detail: String)
    /// A fastlane match file failed to decrypt: match's formats cannot tell a wrong passphrase
    /// from an altered file (v2's GCM tag covers both; v1 has no integrity check at all).
    case matchDecryptionFailed(file: String, format: String)
    /// `file` is not in a format this version reads; `detail` says what was found.
    case unreadableFormat(file: String, detail: String)
    /// `file`'s header asks for KDF parameters outside what Slipway accepts.
    case unsupportedParameters(file: String, detail: String)
    /// An empty passphrase was given for `storage`.
    case emptyPassphrase(storage: String)
    /// `path` is not a relative path inside the storage (empty, absolute, or with `..`).
    case invalidPath(path: String)
    /// `path` is not in `storage`.
    case fileNotFound(path: String, storage: String)
    /// `storage` was opened read-only and `operation` would change it.
    case readOnly(storage: String, operation: String)
    /// `storage`'s `slipway-signing.json` cannot be used.
    case invalidManifest(storage: String, detail: String)
    /// `storage` has neither Slipway's manifest nor match's marker, and it is not empty.
    case unrecognizedStorage(storage: String, detail: String)
    /// The repository or bucket `storage` could not be reached or read.
    case unreachable(storage: String, detail: String)
    /// `path` inside `storage` (`.`: the storage itself) is a symbolic link.
    case unsafeLink(storage: String, path: String)
    /// Writing to `storage` failed (no write access, a refused push, ...).
    case writeFailed(storage: String, detail: String)
    /// Someone else pushed to `storage` since it was cloned; nothing was pushed.
    case pushConflict(storage: String, detail: String)
    /// `text` is not a storage address Slipway understands.
    case invalidLocation(text: String, detail: String)
}

extension SigningStorageError: LocalizedError {
    /// A message that names the subject and says what to do.
    public var errorDescription: String? {
        switch self {
        case let .wrongPassphrase(file):
            return "The passphrase does not decrypt '\(file)'. Check the signing passphrase secret; "
                + "every file of a storage is encrypted with the same passphrase."
        case let .tampered(file, detail):
            return "'\(file)' failed its integrity check (\(detail)): it was altered or damaged, so nothing from it was used. "
                + "Restore it from the storage's history or re-create it."
        case let .matchDecryptionFailed(file, format):
            return "The passphrase does not decrypt '\(file)' (fastlane match \(format)), or the file was altered: match's format "
                + "cannot tell the two apart. Check the passphrase (match's MATCH_PASSWORD) first; if it opens the storage's "
                + "other files, restore this one from the storage's history."
        case let .unreadableFormat(file, detail):
            return "'\(file)' is not an encrypted signing file that Slipway reads (\(detail)). "
                + "Check that the storage holds files written by Slipway or by fastlane match."
        case let .unsupportedParameters(file, detail):
            return "'\(file)' asks for key derivation parameters Slipway refuses (\(detail)). "
                + "The file may be damaged or written by a newer Slipway; upgrade Slipway or restore the file."
        case let .unsafeLink(storage, path):
            return "'\(path)' in the signing storage '\(storage)' is a symbolic link: a storage holds regular files and folders "
                + "only, so nothing was read, written or deleted through it. Remove the link from the storage (a storage in "
                + "the checkout or a cloned one may be hostile), or give the storage's real path."
        case let .emptyPassphrase(storage):
            return "The passphrase for '\(storage)' is empty. Set the signing passphrase secret to a non-empty value."
        case let .invalidPath(path):
            return "'\(path)' is not a path inside a signing storage: use a relative path such as 'certs/distribution/ID.cer', "
                + "without '..' or a leading '/'."
        case let .fileNotFound(path, storage):
            return "'\(path)' is not in the signing storage '\(storage)'. Run 'slipway signing list' to see what it holds."
        case let .readOnly(storage, operation):
            return "Cannot \(operation) in '\(storage)': the storage was opened read-only. Run without --readonly to change it."
        case let .invalidManifest(storage, detail):
            return "The manifest 'slipway-signing.json' of '\(storage)' cannot be used: \(detail). "
                + "Restore it from the storage's history; it is written by Slipway and not meant to be edited."
        case let .unrecognizedStorage(storage, detail):
            return "'\(storage)' is neither a Slipway signing storage nor a fastlane match storage (\(detail)). "
                + "Point the storage at an empty location or at an existing signing storage."
        case let .unreachable(storage, detail):
            return "The signing storage '\(storage)' could not be reached: \(detail). "
                + "Check the address and your access; a read-only run can use the last local clone."
        case let .writeFailed(storage, detail):
            return "Could not write to the signing storage '\(storage)': \(detail). Check that you have write access."
        case let .pushConflict(storage, detail):
            return "Someone else changed the signing storage '\(storage)' since it was read (\(detail)); nothing was pushed. "
                + "Run the command again: it starts from their version."
        case let .invalidLocation(text, detail):
            return "'\(text)' is not a signing storage address: \(detail). Use a git URL (https://, ssh://, git@host:path, file://), "
                + "s3://bucket/prefix, or a directory path."
        }
    }
}
