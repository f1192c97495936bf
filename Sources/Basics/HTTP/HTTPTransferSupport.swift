import Foundation

/// What both HTTP clients (`CurlHTTPClient`, `URLSessionHTTPClient`) do the same way, so that
/// they refuse, fail and clean up with the same words. `package`: for the clients only.
package enum HTTPTransferSupport {
    /// Refuses URLs that are not http or https.
    /// - Throws: `HTTPError.unsupportedURL`.
    package static func checkScheme(of url: URL) throws {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw HTTPError.unsupportedURL(url: url.absoluteString)
        }
    }

    /// Opens a file body: the handle positioned at its first byte, and how many bytes to send.
    /// `range` (offset, length) is one part of the file; nil sends the whole file.
    /// - Throws: `HTTPError.unreadableBody` when the file cannot be read or the range lies outside it.
    package static func openBody(path: String, range: (offset: Int64, length: Int64)?) throws -> (FileHandle, Int64) {
        guard let handle = FileHandle(forReadingAtPath: path),
              let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
        else {
            throw HTTPError.unreadableBody(path: path, reason: "it does not exist or is not readable")
        }
        guard let (offset, length) = range else { return (handle, size) }
        guard offset >= 0, length >= 0, offset <= size - length else {
            try? handle.close()
            throw HTTPError.unreadableBody(path: path, reason: "bytes \(offset)..<\(offset &+ length) lie outside its \(size) bytes")
        }
        do { try handle.seek(toOffset: UInt64(offset)) } catch {
            try? handle.close()
            throw HTTPError.unreadableBody(path: path, reason: "cannot seek to byte \(offset): \(error.localizedDescription)")
        }
        return (handle, length)
    }

    /// Creates (or truncates) a download's destination file.
    package static func createDestination(_ path: String) -> Result<FileHandle, HTTPError> {
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path)
        else {
            return .failure(.cannotWrite(path: path, reason: "the file cannot be created"))
        }
        return .success(handle)
    }

    /// Removes what a failed download wrote: the destination exists only once a 2xx answer
    /// started arriving.
    package static func removePartialDownload(_ destination: String?, status: Int?) {
        if let destination, let status, (200..<300).contains(status) {
            try? FileManager.default.removeItem(atPath: destination)
        }
    }

    /// A peer that hung up mid-exchange, in words that say so (the transport's own words,
    /// "Send failure: Broken pipe", "Recv failure: Connection reset by peer" or "Empty reply
    /// from server" depending on the moment, do not say who hung up).
    package static func connectionClosed(_ url: URL, detail: String) -> HTTPError {
        .transport(url: url.absoluteString, reason: "the server closed the connection before the exchange finished (\(detail))")
    }

    /// The request's idle timeout ran out (curl: "Operation timed out after 1001 milliseconds
    /// with 0 bytes received"; URLSession: "The request timed out."), in the same words for both.
    package static func timedOut(_ url: URL, after timeout: Duration) -> HTTPError {
        let seconds = wholeSeconds(timeout)
        return .transport(url: url.absoluteString,
                          reason: "nothing arrived for \(seconds) second\(seconds == 1 ? "" : "s"), the request's timeout")
    }

    /// `timeout` in whole seconds, rounded up, at least 1: both clients' timers count seconds.
    package static func wholeSeconds(_ timeout: Duration) -> Int64 {
        max(1, timeout.components.seconds + (timeout.components.attoseconds > 0 ? 1 : 0))
    }

    /// True for a status whose body is a redirect's, not the answer's: no download progress then.
    package static func isRedirect(_ status: Int) -> Bool {
        HTTPRedirectPolicy.followedStatuses.contains(status)
    }
}
