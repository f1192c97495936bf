import CLibgit2
import Foundation

/// Facts about the libgit2 library this process is linked against.
public enum LibGit2 {
    /// The linked libgit2's version, e.g. `"1.5.1"`, for `slipway doctor` style reports.
    public static var version: String {
        var major: Int32 = 0, minor: Int32 = 0, revision: Int32 = 0
        _ = git_libgit2_version(&major, &minor, &revision)
        return "\(major).\(minor).\(revision)"
    }

    /// Initialises libgit2 once per process. libgit2 keeps a reference count and must see one
    /// `git_libgit2_init()` before any other call; a lazily initialised `let` gives exactly one,
    /// thread-safely, without global mutable state. It is never shut down: the process owns it.
    ///
    /// libgit2 re-hashes every object it reads (with collision-detecting SHA-1) to compare it
    /// with its id; git does not, leaving that to `git fsck`. Reading a release's history, that
    /// check cost as much as inflating the objects, so it is switched off, as in git.
    static let initialized: Bool = {
        let ready = git_libgit2_init() > 0
        _ = slipway_git_set_strict_hash_verification(0)
        return ready
    }()

    /// Call at the top of every entry point that reaches libgit2.
    @inline(__always)
    static func ensureInitialized() {
        _ = initialized
    }

    /// Switches libgit2's repository-ownership check off, once per process. Only done when the
    /// user's git configuration trusts every directory (`safe.directory = *`), which git honours
    /// but libgit2 1.5 does not; it then matches what `git` itself would do.
    static let ownerValidationDisabled: Bool = slipway_git_set_owner_validation(0) == 0

    /// True when the system or global git configuration says `safe.directory = *` (and no later
    /// empty value reset the list), as git reads it: repository config does not count.
    static func configurationTrustsAllDirectories() -> Bool {
        ensureInitialized()
        var config: OpaquePointer?
        guard git_config_open_default(&config) == 0 else { return false }
        defer { git_config_free(config) }
        var iterator: OpaquePointer?
        guard git_config_multivar_iterator_new(&iterator, config, "safe.directory", nil) == 0 else { return false }
        defer { git_config_iterator_free(iterator) }
        var trusted = false
        var entry: UnsafeMutablePointer<git_config_entry>?
        while git_config_next(&entry, iterator) == 0, let value = string(entry?.pointee.value) {
            if value.isEmpty { trusted = false } else if value == "*" { trusted = true }
        }
        return trusted
    }
}

/// libgit2's account of a failed call: its return code and `git_error_last()`'s message, read
/// right after the call on the same thread (libgit2 keeps the last error per thread).
struct LibGit2Failure: Error, Sendable {
    let code: Int32
    let message: String

    /// Captures the current thread's last libgit2 error for the failed return `code`.
    init(code: Int32) {
        self.code = code
        if let last = git_error_last(), let text = last.pointee.message, text.pointee != 0 {
            message = String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
        } else {
            message = "error code \(code)"
        }
    }

    /// True when libgit2 reported that the object or reference does not exist.
    var isNotFound: Bool { code == GIT_ENOTFOUND.rawValue }
}

/// Runs one libgit2 call and turns a negative return into a `GitError` built by `error`.
@discardableResult
func check(_ code: Int32, _ error: (LibGit2Failure) -> GitError) throws -> Int32 {
    if code < 0 { throw error(LibGit2Failure(code: code)) }
    return code
}

/// A Swift string from a C string that libgit2 may leave NULL.
func string(_ pointer: UnsafePointer<CChar>?) -> String? {
    pointer.map { String(cString: $0) }
}

/// Hands `strings` to `body` as a `git_strarray` whose C strings live for the call's duration.
func withStrArray<T>(_ strings: [String], _ body: (inout git_strarray) throws -> T) rethrows -> T {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    defer { pointers.forEach { free($0) } }
    return try pointers.withUnsafeMutableBufferPointer { buffer in
        var array = git_strarray(strings: buffer.baseAddress, count: buffer.count)
        return try body(&array)
    }
}

/// Copies a `git_strarray` that libgit2 filled into Swift strings (the caller disposes of it).
func strings(from array: git_strarray) -> [String] {
    guard let base = array.strings else { return [] }
    return (0..<array.count).compactMap { string(base[$0]) }
}

/// `text` cleaned up as `git commit -m` does: trailing white space removed from every line,
/// leading and trailing blank lines dropped, runs of blank lines collapsed, one final newline.
/// Empty when nothing but white space remains. Comment lines are kept.
func cleanedMessage(_ text: String) -> String {
    var buffer = git_buf()
    defer { git_buf_dispose(&buffer) }
    guard git_message_prettify(&buffer, text, 0, CChar(UInt8(ascii: "#"))) == 0 else {
        return text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? "" : text
    }
    return string(buffer.ptr) ?? ""
}
