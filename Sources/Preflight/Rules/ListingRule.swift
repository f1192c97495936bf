import AppleAPI
import Basics

/// The listing texts and screenshots `appstore.metadata` would send pass Apple's limits: the
/// step's own checks (`ListingLimits`, `ScreenshotSync.check`), every problem at once.
public struct ListingRule: PreflightRule {
    public let id = "listing"
    public let summary = "The listing texts and screenshots appstore.metadata would send pass Apple's limits"
    public let citation = "https://developer.apple.com/help/app-store-connect/reference/app-information/ and https://developer.apple.com/help/app-store-connect/reference/screenshot-specifications/"
    public let needsAppStoreConnect = false

    public init() {}

    func folders(_ context: PreflightContext) -> (metadata: String?, screenshots: String?) {
        let metadata = context.options.metadataPath.flatMap { context.fileSystem.isDirectory($0) ? $0 : nil }
        let screenshots = context.options.screenshotsPath.flatMap { context.fileSystem.isDirectory($0) ? $0 : nil }
        return (metadata, screenshots)
    }

    public func skipReason(_ context: PreflightContext) -> String? {
        if context.options.destination == "testflight" { return "a TestFlight upload sends no App Store listing" }
        let (metadata, screenshots) = folders(context)
        guard metadata == nil, screenshots == nil else { return nil }
        let named = [context.options.metadataPath, context.options.screenshotsPath].compactMap { $0 }.map { "'\(context.display($0))'" }
        return "no metadata or screenshots folder" + (named.isEmpty ? "" : " (" + named.joined(separator: ", ") + " not found)")
    }

    public func check(_ context: PreflightContext) throws -> [PreflightFinding] {
        let (metadata, screenshots) = folders(context)
        var found: [PreflightFinding] = []
        if let metadata {
            let shown = context.display(metadata)
            let contents = try ListingFolder(path: metadata, fileSystem: context.fileSystem).read()
            for violation in ListingLimits.violations(in: contents, locales: Array(contents.locales.keys)) {
                found.append(finding(.error, at: .file(shown + "/" + violation.file), violation.problem,
                                     advice: "shorten or fix the text; appstore.metadata refuses to send the listing until it fits"))
            }
        }
        if let screenshots {
            do {
                try ScreenshotSync.check(folder: screenshots, fileSystem: context.fileSystem)
            } catch ScreenshotError.invalidFolder(_, let problems) {
                // The step's messages name files by absolute path; the report names them from the project root.
                let shown = context.display(screenshots)
                for problem in problems {
                    found.append(finding(.error, at: .file(shown), problem.replacingOccurrences(of: "'\(screenshots)/", with: "'\(shown)/"),
                                         advice: "replace the screenshot with one of a size App Store Connect accepts for its display type (docs/screenshots.md)"))
                }
            }
        }
        return found
    }
}
