import Basics
import Crypto
import Foundation
import Transport

extension ScreenshotSync {
    /// Writes Apple's screenshots into deliver's folder layout: `<folder>/<locale>/`,
    /// `<folder>/iMessage/<locale>/` for iMessage types and `<folder>/appleTV/<locale>/` for
    /// Apple TV, named as deliver's `download_screenshots` names them,
    /// `{index}_{displayType}_{index}.{ext}` (so natural order is Apple's order). A file whose
    /// MD5 is already the screenshot's `sourceFileChecksum`, or whose bytes equal the download,
    /// is not written; others are written atomically. Each download is at most
    /// `maximumDownloadBytes`. Screenshots Apple has not finished processing are skipped.
    /// - Throws: `ScreenshotError`, `AppStoreConnectError`, `TransportError`.
    public func pull(folder: String, localizations: [String: String]) async throws -> ScreenshotReport {
        var entries: [ScreenshotReport.Entry] = []
        for (locale, localizationID) in localizations.sorted(by: { $0.key < $1.key }) {
            for set in try await remoteSets(localizationID: localizationID, locale: locale) where !set.screenshots.isEmpty {
                let directory = folder + (set.displayType.hasPrefix("IMESSAGE_") ? "/iMessage/" : set.displayType == "APP_APPLE_TV" ? "/appleTV/" : "/")
                    + locale
                var entry = ScreenshotReport.Entry(locale: locale, displayType: set.displayType)
                for (index, screenshot) in set.screenshots.enumerated() where screenshot.state == "COMPLETE" {
                    let ext = Self.fileExtension(of: screenshot.fileName)
                    let name = "\(index)_\(set.displayType)_\(index).\(ext)"
                    if try await write(screenshot, to: directory + "/" + name, ext: ext) {
                        entry.uploaded.append(name)
                    } else {
                        entry.unchanged.append(name)
                    }
                }
                entries.append(entry)
            }
        }
        return ScreenshotReport(entries: entries, dryRun: false, pulled: true)
    }

    /// "png", "jpg" or "jpeg" from Apple's file name (png when it has none of them).
    static func fileExtension(of fileName: String) -> String {
        let ext = (fileName as NSString).pathExtension.lowercased()
        return ["png", "jpg", "jpeg"].contains(ext) ? ext : "png"
    }

    /// Downloads and writes one screenshot unless the file already holds it; true when written.
    private func write(_ screenshot: RemoteScreenshot, to path: String, ext: String) async throws -> Bool {
        let fileSystem = self.fileSystem
        let existing: [UInt8]? = try await BlockingWork.run(name: "slipway-screenshots") {
            fileSystem.kind(of: path) == .file ? try fileSystem.read(path) : nil
        }
        if let existing, let checksum = screenshot.checksum,
           Insecure.MD5.hash(data: existing).map({ String(format: "%02x", $0) }).joined() == checksum {
            return false
        }
        guard let template = screenshot.templateURL else {
            throw ScreenshotError.unexpectedAnswer(step: "GET /v1/appScreenshots/\(screenshot.id)", problem: "the COMPLETE screenshot has no imageAsset.templateUrl")
        }
        let address = template.replacingOccurrences(of: "{w}", with: String(screenshot.width))
            .replacingOccurrences(of: "{h}", with: String(screenshot.height))
            .replacingOccurrences(of: "{f}", with: ext == "png" ? "png" : "jpg")
        guard let url = URL(string: address), url.scheme == "https" || url.scheme == "http" else {
            throw ScreenshotError.unexpectedAnswer(step: "GET /v1/appScreenshots/\(screenshot.id)", problem: "'\(address)' is not an http(s) URL")
        }
        let limit = maximumDownloadBytes
        let retrying = RetryingHTTPClient(client: client.http, policy: client.retry)
        let response: HTTPResponse
        do {
            response = try await retrying.sendExpectingSuccess("download the screenshot '\(screenshot.fileName)'") {
                HTTPRequest(url: url, timeout: .seconds(120), limits: HTTPTransferLimits(maximumBytes: Int64(limit)))
            }
        } catch HTTPError.responseTooLarge {
            throw ScreenshotError.downloadTooLarge(url: address, limit: limit)
        }
        guard response.body.count <= limit else { throw ScreenshotError.downloadTooLarge(url: address, limit: limit) }
        if existing == response.body { return false }
        let body = response.body
        try await BlockingWork.run(name: "slipway-screenshots") {
            try fileSystem.createDirectory((path as NSString).deletingLastPathComponent)
            try fileSystem.writeAtomically(body, to: path)
        }
        return true
    }
}
