import Basics
import Foundation

/// The app icon set holds the 1024×1024 App Store icon, a PNG without an alpha channel:
/// App Store Connect refuses the upload without it (ITMS-90704) or with transparency (ITMS-90717).
public struct MarketingIconRule: PreflightRule {
    public let id = "marketing-icon"
    public let summary = "The app icon set has its 1024x1024 App Store icon, a PNG without alpha"
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
            return [finding(.error, at: at, "'\(app.name)': there is no icon set '\(name).appiconset' in an asset catalog"
                            + (app.appIconName == nil ? " (ASSETCATALOG_COMPILER_APPICON_NAME is not set; Xcode's default name is AppIcon)" : ""),
                            advice: "add the app icon set to the app's asset catalog with a 1024x1024 PNG, and set ASSETCATALOG_COMPILER_APPICON_NAME to its name")]
        }
        var problems: [(String, PreflightLocation)] = []
        for set in sets {
            let contents = set + "/Contents.json"
            guard let problem = marketingIconProblem(set: set, contents: contents, context: context) else { return [] }
            problems.append(problem)
        }
        return problems.map { problem in
            let alpha = problem.0.contains("alpha channel")
            return finding(alpha ? .warning : .error, at: problem.1, "'\(app.name)': \(problem.0)",
                           advice: alpha ? "export the icon without an alpha channel (RGB); Slipway does not decode the pixels to tell whether one is transparent"
                                         : "add a 1024x1024 PNG without transparency to the icon set (idiom ios-marketing, or the single-size universal icon)")
        }
    }

    /// Nil when the set holds a good 1024-pixel icon, else what is wrong and where.
    func marketingIconProblem(set: String, contents: String, context: PreflightContext) -> (String, PreflightLocation)? {
        let root = context.options.root
        guard let bytes = try? context.fileSystem.read(root + "/" + contents, as: .configuration),
              let json = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              let images = json["images"] as? [[String: Any]] else {
            return ("'\(contents)' cannot be read as an asset catalog's Contents.json", .file(contents))
        }
        let marketing = images.filter { image in
            (image["size"] as? String) == "1024x1024" && ["ios-marketing", "universal"].contains(image["idiom"] as? String ?? "")
                && (image["scale"] as? String ?? "1x") == "1x"
        }
        guard !marketing.isEmpty else { return ("'\(set)' has no 1024x1024 App Store icon (idiom ios-marketing or universal)", .file(contents)) }
        guard let file = marketing.compactMap({ $0["filename"] as? String }).first else {
            return ("'\(set)' lists a 1024x1024 App Store icon without an image file", .file(contents))
        }
        let path = set + "/" + file
        guard let png = try? context.fileSystem.read(root + "/" + path, as: .screenshot) else {
            return ("the App Store icon '\(path)' is missing or unreadable", .file(contents))
        }
        guard let header = PNGHeader(png) else { return ("the App Store icon '\(path)' is not a PNG", .file(path)) }
        if header.width != 1024 || header.height != 1024 {
            return ("the App Store icon '\(path)' is \(header.width)x\(header.height) pixels, not 1024x1024", .file(path))
        }
        if header.hasAlpha { return ("the App Store icon '\(path)' has an alpha channel; App Store Connect refuses an App Store icon that is transparent or has an alpha channel (ITMS-90717)", .file(path)) }
        return nil
    }
}

/// A PNG's size and whether its colour type carries alpha, from the IHDR chunk.
struct PNGHeader {
    var width: Int
    var height: Int
    var hasAlpha: Bool

    init?(_ bytes: [UInt8]) {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 26, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        func number(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        width = number(16)
        height = number(20)
        // Colour types 4 (grey + alpha) and 6 (RGBA); a tRNS chunk (palette transparency) is not looked for.
        hasAlpha = bytes[25] == 4 || bytes[25] == 6
    }
}
