import Basics
import Crypto
import Foundation

/// One screenshot file of deliver's folder, read and checked.
struct LocalScreenshot: Sendable, Hashable {
    var path: String
    var fileName: String
    var fileSize: Int64
    /// Lower-case hex MD5 of the file: what Apple keeps as `sourceFileChecksum`.
    var checksum: String
}

/// The screenshots of one locale and display type, in deliver's order.
struct LocalScreenshotGroup: Sendable, Hashable {
    var locale: String
    var displayType: String
    var files: [LocalScreenshot]
}

/// Reads deliver's screenshots folder: `<folder>/<locale>/*.png|jpg|jpeg`, iMessage apps'
/// `<folder>/iMessage/<locale>/…` and `<folder>/appleTV/<locale>/…` (fastlane
/// deliver's `Loader`). `android` (supply's) is skipped. When a locale folder has frameit's
/// `*_framed.*` files, only files whose names contain "framed" or "watch" are taken, as deliver does.
enum ScreenshotFolder {
    /// The largest file slipway reads as a screenshot. Apple documents no file-size limit on its
    /// screenshot specifications page; this bound only keeps an untrusted file from filling memory
    /// (a 2868x1320 PNG stored uncompressed is about 15 MB).
    static let maximumFileBytes: Int64 = 64 << 20

    /// Every group of the folder, checked; throws `.invalidFolder` with all problems at once.
    /// Only locales of `localizations` may have screenshots; with nil, any App Store locale (the
    /// offline check, before the version's localizations are known).
    static func read(_ folder: String, localizations: [String: String]?, fileSystem: any FileSystem) throws -> [LocalScreenshotGroup] {
        guard fileSystem.kindFollowingLinks(of: folder) == .directory else { throw ScreenshotError.noFolder(path: folder) }
        var problems: [String] = []
        var groups: [LocalScreenshotGroup] = []
        for (locale, path, iMessage) in try localeFolders(folder, fileSystem: fileSystem, problems: &problems) {
            let files = try imageFiles(in: path, fileSystem: fileSystem)
            guard !files.isEmpty else { continue }
            guard let localizations else {
                if !AppStoreLocales.isAccepted(locale) {
                    let near = AppStoreLocales.suggestions(for: locale).map { "'\($0)'" }.joined(separator: ", ")
                    problems.append("'\(path)' is not named after an App Store locale (codes are case-sensitive)"
                                    + (near.isEmpty ? "" : "; did you mean \(near)?") + ": rename it to its locale")
                    continue
                }
                try collect(locale: locale, path: path, iMessage: iMessage, files: files, fileSystem: fileSystem, groups: &groups, problems: &problems)
                continue
            }
            guard localizations[locale] != nil else {
                let known = localizations.keys.sorted().joined(separator: ", ")
                problems.append("'\(path)' holds screenshots for '\(locale)', which is not a localization of this version "
                                + "(it has \(known.isEmpty ? "none" : known)): add the localization, or rename the folder to its locale")
                continue
            }
            try collect(locale: locale, path: path, iMessage: iMessage, files: files, fileSystem: fileSystem, groups: &groups, problems: &problems)
        }
        guard problems.isEmpty else { throw ScreenshotError.invalidFolder(path: folder, problems: problems) }
        return groups.sorted { ($0.locale, $0.displayType) < ($1.locale, $1.displayType) }
    }

    /// Checks one locale folder's images and groups them by display type.
    private static func collect(locale: String, path: String, iMessage: Bool, files: [String], fileSystem: any FileSystem,
                                groups: inout [LocalScreenshotGroup], problems: inout [String]) throws {
        var byType: [(type: String, files: [LocalScreenshot])] = []
        for name in files {
            guard let (file, type) = check(path + "/" + name, iMessage: iMessage, fileSystem: fileSystem, problems: &problems) else { continue }
            if let index = byType.firstIndex(where: { $0.type == type }) { byType[index].files.append(file) } else { byType.append((type, [file])) }
        }
        for entry in byType {
            if entry.files.count > ScreenshotDisplayTypes.maximumPerSet {
                problems.append("'\(path)' has \(entry.files.count) screenshots for \(entry.type); Apple takes at most "
                                + "\(ScreenshotDisplayTypes.maximumPerSet) per display type and locale (\(ScreenshotDisplayTypes.specificationURL)): "
                                + "remove \(entry.files.count - ScreenshotDisplayTypes.maximumPerSet)")
            }
            groups.append(LocalScreenshotGroup(locale: locale, displayType: entry.type, files: entry.files))
        }
    }

    /// The locales whose folders hold image files, from names alone (no image is read).
    static func localesWithImages(_ folder: String, fileSystem: any FileSystem) throws -> Set<String> {
        guard fileSystem.kindFollowingLinks(of: folder) == .directory else { return [] }
        var problems: [String] = []
        return Set(try localeFolders(folder, fileSystem: fileSystem, problems: &problems)
            .filter { try !imageFiles(in: $0.1, fileSystem: fileSystem).isEmpty }.map(\.0))
    }

    /// (locale, folder, iMessage) for every locale folder, with `iMessage/` and `appleTV/` expanded.
    private static func localeFolders(_ folder: String, fileSystem: any FileSystem, problems: inout [String]) throws
        -> [(String, String, Bool)] {
        var found: [(String, String, Bool)] = []
        for name in try directories(in: folder, fileSystem: fileSystem) {
            switch name {
            case "android":
                continue
            case "iMessage", "appleTV":
                for locale in try directories(in: folder + "/" + name, fileSystem: fileSystem) {
                    found.append((locale, folder + "/" + name + "/" + locale, name == "iMessage"))
                }
            case "default":
                if try !imageFiles(in: folder + "/default", fileSystem: fileSystem).isEmpty {
                    problems.append("'\(folder)/default' (deliver's screenshots for every language) is not supported: "
                                    + "copy its files into each locale's folder")
                }
            default:
                found.append((name, folder + "/" + name, false))
            }
        }
        return found
    }

    private static func directories(in path: String, fileSystem: any FileSystem) throws -> [String] {
        try fileSystem.contents(ofDirectory: path).filter { !$0.hasPrefix(".") && fileSystem.kindFollowingLinks(of: path + "/" + $0) == .directory }
            .sorted()
    }

    /// The image files of a locale folder, in deliver's order.
    static func imageFiles(in path: String, fileSystem: any FileSystem) throws -> [String] {
        let names = try fileSystem.contents(ofDirectory: path).filter { name in
            let ext = (name as NSString).pathExtension.lowercased()
            return ["png", "jpg", "jpeg"].contains(ext) && !name.hasPrefix(".") && fileSystem.kindFollowingLinks(of: path + "/" + name) == .file
        }
        let framed = names.contains { ($0 as NSString).deletingPathExtension.lowercased().hasSuffix("_framed") }
        let chosen = framed ? names.filter { $0.lowercased().contains("framed") || $0.lowercased().contains("watch") } : names
        return chosen.sorted(by: NaturalOrder.less)
    }

    /// Reads and checks one file; nil (with a problem) when it cannot be sent.
    private static func check(_ path: String, iMessage: Bool, fileSystem: any FileSystem, problems: inout [String])
        -> (LocalScreenshot, String)? {
        if fileSystem.kind(of: path) == .symbolicLink {
            problems.append("'\(path)' is a symbolic link, which slipway does not follow in the screenshots folder: copy the image in its place")
            return nil
        }
        let size = fileSystem.status(of: path)?.details?.size ?? 0
        if size > maximumFileBytes {
            problems.append("'\(path)' is \(size) bytes; slipway reads screenshots of at most \(maximumFileBytes) bytes: export a smaller image")
            return nil
        }
        let bytes: [UInt8]
        do { bytes = try fileSystem.read(path, limit: Int(maximumFileBytes)) } catch {
            problems.append("'\(path)' cannot be read: \(error.localizedDescription)")
            return nil
        }
        let header: ScreenshotImageHeader
        switch ScreenshotImageHeader.read(bytes) {
        case .failure(let problem):
            problems.append("'\(path)' \(problem.text): export it again as PNG or JPEG")
            return nil
        case .success(let read): header = read
        }
        let ext = (path as NSString).pathExtension.lowercased()
        guard header.format.extensions.contains(ext) else {
            let renamed = ((path as NSString).lastPathComponent as NSString).deletingPathExtension + "." + header.format.extensions[0]
            problems.append("'\(path)' is a \(header.format == .png ? "PNG" : "JPEG") image named .\(ext): rename it to '\(renamed)'")
            return nil
        }
        guard let type = ScreenshotDisplayTypes.displayType(of: header.size, path: path, iMessage: iMessage) else {
            problems.append("'\(path)' is \(header.size) pixels, which no App Store display type accepts\(iMessage ? " for iMessage apps" : ""). "
                            + "Accepted sizes (\(ScreenshotDisplayTypes.specificationURL)): \(ScreenshotDisplayTypes.acceptedSizesText(iMessage: iMessage))")
            return nil
        }
        let checksum = Insecure.MD5.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
        return (LocalScreenshot(path: path, fileName: (path as NSString).lastPathComponent, fileSize: Int64(bytes.count), checksum: checksum), type)
    }
}

/// Natural order of file names, as deliver sorts a set's screenshots (the Naturally gem): runs
/// of digits compare as numbers ("2.png" before "10.png"), other text without regard to case;
/// ties fall back to plain order.
enum NaturalOrder {
    static func less(_ lhs: String, _ rhs: String) -> Bool {
        let left = chunks(lhs), right = chunks(rhs)
        for (a, b) in zip(left, right) where a != b {
            switch (a, b) {
            case let (.number(x), .number(y)):
                let x1 = x.drop { $0 == "0" }, y1 = y.drop { $0 == "0" }
                if x1.count != y1.count { return x1.count < y1.count }
                if x1 != y1 { return x1 < y1 }
            case let (.text(x), .text(y)):
                if x.lowercased() != y.lowercased() { return x.lowercased() < y.lowercased() }
            case (.number, .text): return true
            case (.text, .number): return false
            }
        }
        if left.count != right.count { return left.count < right.count }
        return lhs < rhs
    }

    private enum Chunk: Equatable { case number(Substring), text(Substring) }

    private static func chunks(_ text: String) -> [Chunk] {
        var result: [Chunk] = []
        var start = text.startIndex
        while start < text.endIndex {
            let digits = text[start].isASCII && text[start].isNumber
            let end = text[start...].firstIndex { ($0.isASCII && $0.isNumber) != digits } ?? text.endIndex
            result.append(digits ? .number(text[start..<end]) : .text(text[start..<end]))
            start = end
        }
        return result
    }
}
