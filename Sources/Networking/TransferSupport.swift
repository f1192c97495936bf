import Basics
import Foundation

/// What both HTTP clients (URLSession on macOS, libcurl on Linux) do the same way.
enum TransferSupport {
    /// Refuses URLs that are not http or https.
    static func checkScheme(of url: URL) throws {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw HTTPError.unsupportedURL(url: url.absoluteString)
        }
    }

    /// Creates (or truncates) a download's destination file.
    static func createDestination(_ path: String) -> Result<FileHandle, HTTPError> {
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path)
        else {
            return .failure(.cannotWrite(path: path, reason: "the file cannot be created"))
        }
        return .success(handle)
    }

    /// Removes what a failed download wrote: the destination exists only once a 2xx answer
    /// started arriving.
    static func removePartialDownload(_ destination: String?, status: Int?) {
        if let destination, let status, (200..<300).contains(status) {
            try? FileManager.default.removeItem(atPath: destination)
        }
    }

    /// A peer that hung up mid-exchange, in words that say so (the transport's own words,
    /// "Send failure: Broken pipe", "Recv failure: Connection reset by peer" or "Empty reply
    /// from server" depending on the moment, do not say who hung up).
    static func connectionClosed(_ url: URL, detail: String) -> HTTPError {
        .transport(url: url.absoluteString, reason: "the server closed the connection before the exchange finished (\(detail))")
    }
}
