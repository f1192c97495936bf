import Basics
import Foundation
import Transport

/// Why an archive, checksum, signature or upload could not be made. Each message quotes its
/// subject and says what to do.
public enum PublishError: Error, LocalizedError, Sendable, Equatable {
    /// A file pattern matched no file.
    case noMatch(pattern: String)
    /// A pattern names something that is not a regular file where a file is needed.
    case notAFile(path: String)
    /// Two inputs would be stored under the same name in an archive.
    case duplicateEntry(name: String)
    /// An input to an archive lies outside the folder names are made relative to.
    case outsideBase(path: String, base: String)
    /// The archive's format cannot be told from its name.
    case unknownArchiveFormat(path: String)
    /// zlib refused to compress (out of memory, a bad level).
    case compressionFailed(path: String, reason: String)
    /// A file listed in SHA256SUMS is not inside the folder of the SHA256SUMS file.
    case notBesideChecksums(file: String, folder: String)
    /// A key file (or key text) is not what it should be.
    case malformedKey(source: KeySource, problem: String)
    /// A protected key was given no passphrase.
    case passphraseRequired(source: KeySource)
    /// The passphrase does not decrypt the key.
    case wrongPassphrase(source: KeySource)
    /// A key file would be replaced.
    case keyExists(path: String)
    /// A signature file is not what it should be.
    case malformedSignature(path: String, problem: String)
    /// A signature does not match the file and key.
    case signatureMismatch(file: String, signature: String)
    /// gpg could not import an armored secret key.
    case gpgImportFailed(reason: String)
    /// gpg failed to sign.
    case gpgFailed(file: String, reason: String)
    /// gpg rejected the passphrase.
    case gpgWrongPassphrase(key: String)
    /// codesign failed.
    case codesignFailed(file: String, reason: String)
    /// A file exists at the destination with different contents.
    case destinationDiffers(path: String, option: String)
    /// The server refused the request (4xx); such answers are never retried.
    case refused(action: String, status: Int, body: String)
    /// The request kept failing (5xx or the connection) until the attempts ran out.
    case failedAfterRetries(action: String, attempts: Int, reason: String)
    /// The server's answer could not be understood.
    case unexpectedResponse(action: String, problem: String)
    /// A configuration value is unusable.
    case invalidConfiguration(name: String, problem: String)
    /// A distribution service (DeployGate, Firebase, Google's token endpoint) answered with an
    /// error of its own (4xx, or an error body); `advice` says what to check. Not retried.
    case serviceRefused(service: String, action: String, status: Int, message: String, advice: String)
    /// A Google service-account key (JSON) is unusable; `source` says where it came from, never
    /// its contents.
    case malformedServiceAccount(source: String, problem: String)
    /// A long-running operation finished with an error.
    case operationFailed(action: String, problem: String)
    /// A long-running operation did not finish in time.
    case operationTimedOut(action: String, waited: String, lastState: String)

    public var errorDescription: String? {
        switch self {
        // The glob's own words: the steps rethrow its errors as these cases.
        case .noMatch(let pattern):
            return ProjectGlobError.noMatch(pattern: pattern).errorDescription
        case .notAFile(let path):
            return ProjectGlobError.notAFile(path: path).errorDescription
        case .duplicateEntry(let name):
            return "two inputs would be stored as '\(name)' in the archive. Rename one, or set 'base' so that their paths differ."
        case .outsideBase(let path, let base):
            return "'\(path)' is not inside the base folder '\(base)'. Move it, or change 'base'."
        case .unknownArchiveFormat(let path):
            return "cannot tell the archive format of '\(path)'. End the name with .tar.gz, .tgz or .zip, or set 'format'."
        case .compressionFailed(let path, let reason):
            return "could not compress '\(path)': \(reason)."
        case .notBesideChecksums(let file, let folder):
            return "'\(file)' is not inside '\(folder)', the folder of the checksum file, so 'sha256sum -c' could not find it. Write the checksum file next to the files."
        case .malformedKey(let source, let problem):
            return "the key \(source) is malformed: \(problem). Give a signify key file made by 'slipway keys generate' or 'signify -G'."
        case .passphraseRequired(let source):
            return "the key \(source) is protected by a passphrase, but none was given. Set the step's 'passphrase' option from a secret."
        case .wrongPassphrase(let source):
            return "the passphrase for \(source) is wrong. Check the secret that holds it."
        case .keyExists(let path):
            return "'\(path)' already exists. Choose another name, or pass --force to replace it (the old key cannot be recovered)."
        case .malformedSignature(let path, let problem):
            return "the signature '\(path)' is malformed: \(problem)."
        case .signatureMismatch(let file, let signature):
            return "the signature '\(signature)' does not match '\(file)'. The file changed after signing, or another key signed it."
        case .gpgImportFailed(let reason):
            return "gpg could not import the secret key: \(reason). Give an armored secret key, as 'gpg --armor --export-secret-keys' writes it."
        case .gpgFailed(let file, let reason):
            return "gpg could not sign '\(file)': \(reason). Check the key and that gpg is installed."
        case .gpgWrongPassphrase(let key):
            return "the passphrase for the gpg key '\(key)' is wrong. Check the secret that holds it."
        case .codesignFailed(let file, let reason):
            return "codesign could not sign '\(file)': \(reason). Check the identity and keychain."
        case .destinationDiffers(let path, let option):
            return "'\(path)' already exists with different contents. Set \(option): true to replace it, or remove it."
        case .refused(let action, let status, let body):
            return TransportError.refused(action: action, status: status, body: body).errorDescription
        case .failedAfterRetries(let action, let attempts, let reason):
            return TransportError.failedAfterRetries(action: action, attempts: attempts, reason: reason).errorDescription
        case .unexpectedResponse(let action, let problem):
            return TransportError.unexpectedResponse(action: action, problem: problem).errorDescription
        case .invalidConfiguration(let name, let problem):
            return "'\(name)' \(problem)."
        case .serviceRefused(let service, let action, let status, let message, let advice):
            let sentence = message.hasSuffix(".") ? String(message.dropLast()) : message
            return "\(action) was refused by \(service) (HTTP \(status)): \(sentence). \(advice)"
        case .malformedServiceAccount(let source, let problem):
            return "the service account \(source) cannot be used: \(problem). Give the JSON key of a Google service account "
                + "(Google Cloud console → IAM → Service accounts → Keys → Add key → JSON), as its text or its path."
        case .operationFailed(let action, let problem):
            return "\(action) failed: \(problem)."
        case .operationTimedOut(let action, let waited, let lastState):
            return "\(action) did not finish within \(waited) (last state: \(lastState)). Raise the timeout, or check the service's console."
        }
    }

    /// " (first 200 characters of the body)", or nothing for an empty body.
    static func excerpt(_ body: String) -> String { TransportError.excerpt(body) }

    /// The case of the same name and message: Publish's clients send through Transport, and
    /// their callers catch (and tests expect) `PublishError`s.
    init(_ error: TransportError) {
        switch error {
        case .refused(let action, let status, let body): self = .refused(action: action, status: status, body: body)
        case .failedAfterRetries(let action, let attempts, let reason):
            self = .failedAfterRetries(action: action, attempts: attempts, reason: reason)
        case .unexpectedResponse(let action, let problem): self = .unexpectedResponse(action: action, problem: problem)
        }
    }

    /// `body`'s result, with a `TransportError` it throws given as the `PublishError` of the same
    /// case and message.
    static func fromTransport<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as TransportError {
            throw PublishError(error)
        }
    }
}
