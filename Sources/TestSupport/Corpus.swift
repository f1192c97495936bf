import Foundation

/// Where the shared real-world corpus lives: `$SLIPWAY_CORPUS`, or `../shared/corpus/pbxproj`
/// beside the repository. A user's fresh clone has no `../shared`; tests that need it skip and
/// say so.
public enum Corpus {
    /// The repository root, found from this source file's location.
    public static var repositoryRoot: String {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }

    /// The pbxproj corpus folder, or nil when it is absent.
    public static var pbxprojDirectory: String? {
        let candidates = [
            ProcessInfo.processInfo.environment["SLIPWAY_CORPUS"],
            repositoryRoot + "/../shared/corpus/pbxproj",
        ].compactMap { $0 }
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/MANIFEST.tsv") }
            .map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    }
}
