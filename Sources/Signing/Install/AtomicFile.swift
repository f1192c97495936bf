import Basics
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files written whole or not at all, through the installer's `FileSystem`: the bytes go to a
/// temporary file in the same folder, given the final mode before anything is written, flushed,
/// then renamed over the target (`FileSystem.writeAtomically(_:to:permissions:)`). A failure
/// removes the temporary file, so a re-run or a crash never leaves a partial file under the
/// final name.
enum AtomicFile {
    /// Creates `path` (and missing parents) as a folder with `mode`, and sets `mode` on it when
    /// it already exists.
    static func makeDirectory(_ path: String, mode: mode_t, fileSystem: any FileSystem) throws {
        do {
            try fileSystem.createDirectory(path, permissions: Int(mode))
        } catch {
            throw SigningInstallError.cannotWrite(path: path, detail: reason(error))
        }
        guard chmod(path, mode) == 0 else {
            throw SigningInstallError.cannotWrite(path: path, detail: String(cString: strerror(errno)))
        }
    }

    /// Writes `bytes` to `path` atomically with permissions `mode`.
    static func store(_ bytes: [UInt8], at path: String, mode: mode_t, fileSystem: any FileSystem) throws {
        do {
            try fileSystem.writeAtomically(bytes, to: path, permissions: Int(mode))
        } catch {
            throw SigningInstallError.cannotWrite(path: path, detail: reason(error))
        }
    }

    /// Throws unless `uuid` is safe as a file name (letters, digits and dashes, as Apple's are).
    static func checkFileName(_ uuid: String, profile: String) throws {
        guard !uuid.isEmpty, uuid.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
            throw SigningInstallError.unsafeProfileUUID(uuid: uuid, profile: profile)
        }
    }

    /// The system's reason alone (`cannotWrite` names the path and says what to do itself).
    static func reason(_ error: any Error) -> String {
        switch error as? FileSystemError {
        case .failed(_, _, let reason)?: return reason
        case .notFound?: return String(cString: strerror(ENOENT))
        case .permissionDenied?: return String(cString: strerror(EACCES))
        case .noSpace?: return String(cString: strerror(ENOSPC))
        default: return error.localizedDescription
        }
    }
}
