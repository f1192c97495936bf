import Basics
import Foundation

/// The app icon set holds the 1024×1024 App Store icon, a PNG without an alpha channel:
/// App Store Connect refuses the upload without it (ITMS-90704) or with transparency (ITMS-90717).
public struct MarketingIconRule: PreflightRule {
    public let id = "marketing-icon"
    public let summary = "The app icon set has its 1024x1024 App Store icon, a PNG without alpha channel or transparency"
    public let citation = "https://developer.apple.com/documentation/xcode/configuring-your-app-icon (ITMS-90704, ITMS-90717)"
    public let needsAppStoreConnect = false

    public init() {}

    public func skipReason(_ context: PreflightContext) -> String? {
        if let problem = context.applicationProblem { return problem }
        return context.options.platform == "IOS" || context.options.platform == "VISION_OS" ? nil
            : "the 1024-pixel App Store icon rule is checked for iOS apps only"
    }

    public func check(_ context: PreflightContext) throws -> [PreflightFinding] {
        guard let app = context.mainApplication, let project = context.project else { return [] }
        let name = app.appIconName?.value ?? "AppIcon"
        let at = app.appIconName?.location ?? .file(project.projectPath)
        // Xcode 26's Icon Composer file takes the place of the icon set; Xcode renders the App
        // Store icon from its layers when it builds, which Slipway cannot check.
        if let composed = project.files.iconComposerFiles.first(where: { ($0 as NSString).lastPathComponent == name + ".icon" }) {
            return [finding(.note, at: .file(composed),
                            "'\(app.name)': the app icon is the Icon Composer file '\(composed)'; Xcode renders its 1024-pixel App Store icon when it builds, and Slipway does not check that rendering",
                            advice: "check the icon in Xcode's Icon Composer preview before the archive")]
        }
        let named = project.files.appIconSets.filter { ($0 as NSString).lastPathComponent == name + ".appiconset" }
        // An extension's icon set of the same name is not the app's: prefer the sets under the
        // folder that holds the app's Info.plist (its first component), when there are such.
        let home = app.infoPlistPath.flatMap { $0.split(separator: "/").first.map { String($0) + "/" } }
        let own = named.filter { set in home.map { set.hasPrefix($0) } ?? false }
        let sets = own.isEmpty ? named : own
        guard !sets.isEmpty else {
            if project.files.truncated {
                return [finding(.note, at: at, "'\(app.name)': no icon set '\(name).appiconset' was found in the first \(project.files.budget) entries of the checkout, where the walk stopped; the App Store icon is not checked",
                                advice: "check the icon set by hand, or run preflight on a smaller checkout")]
            }
            return [finding(.error, at: at, "'\(app.name)': there is no icon set '\(name).appiconset' in an asset catalog"
                            + (app.appIconName == nil ? " (ASSETCATALOG_COMPILER_APPICON_NAME is not set; Xcode's default name is AppIcon)" : ""),
                            advice: "add the app icon set to the app's asset catalog with a 1024x1024 PNG, and set ASSETCATALOG_COMPILER_APPICON_NAME to its name")]
        }
        var problems: [PreflightFinding] = []
        for set in sets {
            let contents = set + "/Contents.json"
            guard let problem = marketingIconProblem(set: set, contents: contents, app: app.name, context: context) else { return [] }
            problems.append(problem)
        }
        return problems
    }

    static let addIcon = "add a 1024x1024 PNG without transparency to the icon set (idiom ios-marketing, or the single-size universal icon)"

    /// Nil when the set holds a good 1024-pixel icon, else what is wrong and where.
    func marketingIconProblem(set: String, contents: String, app: String, context: PreflightContext) -> PreflightFinding? {
        func error(_ text: String, at place: String) -> PreflightFinding {
            finding(.error, at: .file(place), "'\(app)': \(text)", advice: Self.addIcon)
        }
        let root = context.options.root
        guard let bytes = try? context.fileSystem.read(root + "/" + contents, as: .configuration),
              let json = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              let images = json["images"] as? [[String: Any]] else {
            return error("'\(contents)' cannot be read as an asset catalog's Contents.json", at: contents)
        }
        let marketing = images.filter { image in
            (image["size"] as? String) == "1024x1024" && ["ios-marketing", "universal"].contains(image["idiom"] as? String ?? "")
                && (image["scale"] as? String ?? "1x") == "1x"
        }
        guard !marketing.isEmpty else { return error("'\(set)' has no 1024x1024 App Store icon (idiom ios-marketing or universal)", at: contents) }
        guard let file = marketing.compactMap({ $0["filename"] as? String }).first else {
            return error("'\(set)' lists a 1024x1024 App Store icon without an image file", at: contents)
        }
        let path = set + "/" + file
        let full = root + "/" + path
        guard context.fileSystem.kind(of: full) != nil else { return error("the App Store icon '\(path)' is missing", at: contents) }
        // Through the door with the screenshot cap (a link out of the checkout, a device, a file
        // over 64 MiB are refused before a byte is read); only the chunks before the pixels are parsed.
        let png: [UInt8]
        do {
            png = try context.fileSystem.read(full, as: .screenshot)
        } catch let failure {
            return finding(.note, at: .file(path), "'\(app)': the App Store icon '\(path)' cannot be read, so its size and transparency are not checked: \(failure.localizedDescription)",
                           advice: "keep the icon a regular PNG file inside the checkout, under 64 MiB")
        }
        let header: PNGHeader
        switch PNGHeader.read(png) {
        case .success(let read): header = read
        case .failure(let problem):
            return finding(.note, at: .file(path), "'\(app)': the App Store icon '\(path)' \(problem.text), so its size and transparency are not checked",
                           advice: "export the icon again as a PNG (RGB, 1024x1024, no alpha channel)")
        }
        if header.width != 1024 || header.height != 1024 {
            return error("the App Store icon '\(path)' is \(header.width)x\(header.height) pixels, not 1024x1024", at: path)
        }
        if let transparency = header.transparency {
            return finding(.error, at: .file(path),
                           "'\(app)': the App Store icon '\(path)' has \(transparency); App Store Connect refuses it: "
                           + "\"Invalid App Store Icon. The App Store Icon in the asset catalog can't be transparent nor contain an alpha channel.\" (ITMS-90717)",
                           advice: "export the icon as an RGB PNG without an alpha channel or tRNS chunk (Preview: Export, Alpha unchecked; or flatten it on an opaque background)")
        }
        return nil
    }
}

/// What a PNG says of itself before its pixels: its size, colour type and bit depth (IHDR) and
/// whether a tRNS chunk makes a colour or palette entry transparent. Only the chunks before the
/// first IDAT are read (at most `maximumChunks` of them, each length checked against the bytes
/// there are); the pixels are never decoded.
struct PNGHeader: Equatable {
    var width: Int
    var height: Int
    /// IHDR's colour type: 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA.
    var colorType: UInt8
    /// IHDR's bit depth (1, 2, 4, 8 or 16).
    var bitDepth: UInt8
    /// A tRNS chunk comes before the pixels.
    var hasTransparencyChunk: Bool

    /// Chunks looked at before the first IDAT.
    static let maximumChunks = 1_000

    /// The reason the icon carries transparency, or nil when it has none: an alpha channel
    /// (colour types 4 and 6, at any bit depth), or a tRNS chunk (palette entries, or a grey or
    /// RGB colour, made transparent).
    var transparency: String? {
        switch colorType {
        case 4: return "an alpha channel (PNG colour type 4, grey with alpha, \(bitDepth)-bit)"
        case 6: return "an alpha channel (PNG colour type 6, RGBA, \(bitDepth)-bit)"
        case 3 where hasTransparencyChunk: return "transparency (a palette PNG with a tRNS chunk)"
        case 0 where hasTransparencyChunk, 2 where hasTransparencyChunk:
            return "transparency (a tRNS chunk makes one \(colorType == 0 ? "grey" : "RGB") colour transparent)"
        default: return nil
        }
    }

    /// Why `bytes` cannot be read as a PNG's header, or the header.
    static func read(_ bytes: [UInt8]) -> Result<PNGHeader, Problem> {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else { return .failure(.notPNG) }
        func number(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        var offset = 8
        var header: PNGHeader?
        for index in 0..<maximumChunks {
            // Length, type, data, CRC: the length is at most 2^31 - 1 (PNG's rule) and must fit.
            guard bytes.count - offset >= 8 else { return .failure(.truncated) }
            let length = number(offset)
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            guard length <= Int(Int32.max), bytes.count - offset - 12 >= length else { return .failure(.truncated) }
            let data = offset + 8
            if index == 0 {
                guard type == "IHDR", length == 13 else { return .failure(.noHeader) }
                let depth = bytes[data + 8], colour = bytes[data + 9]
                guard [0, 2, 3, 4, 6].contains(colour), [1, 2, 4, 8, 16].contains(depth) else { return .failure(.badHeader(colour: colour, depth: depth)) }
                header = PNGHeader(width: number(data), height: number(data + 4), colorType: colour, bitDepth: depth, hasTransparencyChunk: false)
            } else if type == "tRNS" {
                header?.hasTransparencyChunk = true
            } else if type == "IDAT" || type == "IEND" {
                return header.map { .success($0) } ?? .failure(.noHeader)
            }
            offset = data + length + 4
        }
        return .failure(.tooManyChunks)
    }

    /// Why the bytes are not a PNG header Slipway can read.
    enum Problem: Error, Equatable {
        case notPNG, truncated, noHeader, tooManyChunks
        case badHeader(colour: UInt8, depth: UInt8)

        var text: String {
            switch self {
            case .notPNG: return "is not a PNG (no PNG signature)"
            case .truncated: return "is a PNG cut short before its pixels (a chunk runs past the end of the file)"
            case .noHeader: return "is a PNG without its IHDR header chunk first"
            case .tooManyChunks: return "is a PNG with more than \(PNGHeader.maximumChunks) chunks before its pixels"
            case let .badHeader(colour, depth): return "is a PNG whose header has colour type \(colour) and bit depth \(depth), which PNG does not define"
            }
        }
    }
}
