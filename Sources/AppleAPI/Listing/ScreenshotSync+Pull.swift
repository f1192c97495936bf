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
    /// `maximumDownloadBytes`. Screenshots Apple has not finished processing are skipped (their
    /// files left as they are) and reported as `skipped`. Files an earlier pull named that Apple no longer has are removed
    /// (reported as `removed`); other files are left alone.
    /// - Throws: `ScreenshotError`, `AppStoreConnectError`, `TransportError`.
    ///
    /// Names from the answer that would name a file are checked first: a locale must be an App
    /// Store locale and a display type one of `ScreenshotDisplayTypes`; an unknown one is
    /// skipped (nothing written or removed for it) and reported in `ignored`.
    public func pull(folder: String, localizations: [String: String]) async throws -> ScreenshotReport {
        var entries: [ScreenshotReport.Entry] = []
        var ignored: [String] = []
        let knownTypes = Set((ScreenshotDisplayTypes.table + ScreenshotDisplayTypes.iMessageTable).map(\.type))
        for (locale, localizationID) in localizations.sorted(by: { $0.key < $1.key }) {
            guard AppStoreLocales.isAccepted(locale) else {
                ignored.append("the locale '\(locale)', which is not an App Store locale")
                continue
            }
            var keep: Set<String> = []    // paths of this locale's screenshots, written or not
            var localeEntries: [ScreenshotReport.Entry] = []
            for set in try await remoteSets(localizationID: localizationID, locale: locale) where !set.screenshots.isEmpty {
                guard knownTypes.contains(set.displayType) else {
                    ignored.append("the \(locale) display type '\(set.displayType)', which is not a screenshot display type Slipway knows")
                    continue
                }
                let directory = Self.directory(folder: folder, locale: locale, displayType: set.displayType)
                var entry = ScreenshotReport.Entry(locale: locale, displayType: set.displayType)
                for (index, screenshot) in set.screenshots.enumerated() {
                    let stem = directory + "/\(index)_\(set.displayType)_\(index)."
                    guard screenshot.state == "COMPLETE" else {
                        keep.formUnion(["png", "jpg", "jpeg"].map { stem + $0 })    // not processed yet: leave what is there
                        entry.skipped.append("\(screenshot.fileName) \(screenshot.state)")
                        continue
                    }
                    let ext = Self.fileExtension(of: screenshot.fileName)
                    keep.insert(stem + ext)
                    let name = "\(index)_\(set.displayType)_\(index).\(ext)"
                    if try await write(folder: folder, screenshot, to: stem + ext, ext: ext) {
                        entry.uploaded.append(name)
                    } else {
                        entry.unchanged.append(name)
                    }
                }
                localeEntries.append(entry)
            }
            for (type, path) in try await staleFiles(folder: folder, locale: locale, keep: keep) {
                if let index = localeEntries.firstIndex(where: { $0.displayType == type }) {
                    localeEntries[index].removed.append((path as NSString).lastPathComponent)
                } else {
                    var entry = ScreenshotReport.Entry(locale: locale, displayType: type)
                    entry.removed = [(path as NSString).lastPathComponent]
                    localeEntries.append(entry)
                }
            }
            entries += localeEntries
        }
        var report = ScreenshotReport(entries: entries, dryRun: false, pulled: true)
        report.ignored = ignored
        return report
    }

    /// Where pull puts a display type's files for a locale.
    static func directory(folder: String, locale: String, displayType: String) -> String {
        folder + (displayType.hasPrefix("IMESSAGE_") ? "/iMessage/" : displayType == "APP_APPLE_TV" ? "/appleTV/" : "/") + locale
    }

    /// Removes files an earlier pull wrote (deliver's `{index}_{displayType}_{index}.{ext}` names,
    /// with a known display type) that App Store Connect no longer has, so that pushing the
    /// folder back does not bring them back; returns (display type, path) of each. Other files
    /// are never touched.
    private func staleFiles(folder: String, locale: String, keep: Set<String>) async throws -> [(String, String)] {
        let fileSystem = self.fileSystem
        let known = Set((ScreenshotDisplayTypes.table + ScreenshotDisplayTypes.iMessageTable).map(\.type))
        return try await BlockingWork.run(name: "slipway-screenshots") {
            var removed: [(String, String)] = []
            for directory in Set([folder + "/" + locale, folder + "/iMessage/" + locale, folder + "/appleTV/" + locale]).sorted()
            where fileSystem.kind(of: directory) == .directory {
                for name in try fileSystem.contents(ofDirectory: directory).sorted(by: NaturalOrder.less) {
                    guard let type = Self.pulledDisplayType(name), known.contains(type), !keep.contains(directory + "/" + name),
                          Self.directory(folder: folder, locale: locale, displayType: type) == directory,
                          fileSystem.kind(of: directory + "/" + name) == .file else { continue }
                    try fileSystem.remove(directory + "/" + name)
                    removed.append((type, directory + "/" + name))
                }
            }
            return removed
        }
    }

    /// The display type of a name pull writes ("3_APP_IPHONE_67_3.png" → APP_IPHONE_67), or nil.
    static func pulledDisplayType(_ name: String) -> String? {
        let stem = (name as NSString).deletingPathExtension
        guard ["png", "jpg", "jpeg"].contains((name as NSString).pathExtension.lowercased()) else { return nil }
        let parts = stem.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count >= 3, let first = parts.first, let last = parts.last, first == last, first.allSatisfy(\.isASCII),
              Int(first) != nil else { return nil }
        return parts.dropFirst().dropLast().joined(separator: "_")
    }

    /// "png", "jpg" or "jpeg" from Apple's file name (png when it has none of them).
    static func fileExtension(of fileName: String) -> String {
        let ext = (fileName as NSString).pathExtension.lowercased()
        return ["png", "jpg", "jpeg"].contains(ext) ? ext : "png"
    }

    /// Downloads and writes one screenshot unless the file already holds it; true when written.
    private func write(folder: String, _ screenshot: RemoteScreenshot, to path: String, ext: String) async throws -> Bool {
        let fileSystem = self.fileSystem
        let existing: [UInt8]? = try await BlockingWork.run(name: "slipway-screenshots") {
            guard fileSystem.kind(of: path) == .file, (fileSystem.status(of: path)?.details?.size ?? 0) <= ScreenshotFolder.maximumFileBytes else {
                return nil
            }
            return try fileSystem.read(path, limit: Int(ScreenshotFolder.maximumFileBytes))
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
            try Self.refuseLinks(from: folder, to: path, fileSystem: fileSystem)
            try fileSystem.createDirectory((path as NSString).deletingLastPathComponent)
            try fileSystem.writeAtomically(body, to: path)
        }
        return true
    }

    /// Refuses a write at `path` when a component below `folder` (the folders on the way, or the
    /// file) is a symbolic link: a checkout's `en-US -> ~/.ssh` must not receive files.
    static func refuseLinks(from folder: String, to path: String, fileSystem: any FileSystem) throws {
        var current = folder
        for component in path.dropFirst(folder.count).split(separator: "/") {
            current += "/" + component
            if fileSystem.kind(of: current) == .symbolicLink {
                throw ScreenshotError.invalidFolder(path: folder, problems: ["'\(current)' is a symbolic link, which pull does not write through: "
                                                                           + "remove it (or give another --screenshots-path)"])
            }
        }
    }
}
