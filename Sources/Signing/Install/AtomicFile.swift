import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files written whole or not at all: the bytes go to a temporary file in the same folder,
/// created with the final mode (never wider), flushed, then renamed over the target. A failure
/// removes the temporary file, so a re-run or a crash never leaves a partial file under the
/// final name.
enum AtomicFile {
    /// Creates `path` (and missing parents) as a folder with `mode`, and sets `mode` on it when
    /// it already exists.
    static func makeDirectory(_ path: String, mode: mode_t) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: Int(mode)])
        } catch {
            throw SigningInstallError.cannotWrite(path: path, detail: error.localizedDescription)
        }
        guard chmod(path, mode) == 0 else {
            throw SigningInstallError.cannotWrite(path: path, detail: String(cString: strerror(errno)))
        }
    }

    /// Writes `bytes` to `path` atomically with permissions `mode`.
    static func store(_ bytes: [UInt8], at path: String, mode: mode_t) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        var template = Array("\(folder)/.\(name).slipway-XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw failure(path) }
        let temporary = String(cString: template)
        var renamed = false
        defer {
            if !renamed { unlink(temporary) }
        }
        do {
            defer { close(descriptor) }
            guard fchmod(descriptor, mode) == 0 else { throw failure(path) }
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw failure(path)
                }
                offset += written
            }
            guard fsync(descriptor) == 0 else { throw failure(path) }
        }
        guard rename(temporary, path) == 0 else { throw failure(path) }
        renamed = true
    }

    /// Throws unless `uuid` is safe as a file name (letters, digits and dashes, as Apple's are).
    static func checkFileName(_ uuid: String, profile: String) throws {
        guard !uuid.isEmpty, uuid.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
            throw SigningInstallError.unsafeProfileUUID(uuid: uuid, profile: profile)
        }
    }

    private static func failure(_ path: String) -> SigningInstallError {
        .cannotWrite(path: path, detail: String(cString: strerror(errno)))
    }
}
