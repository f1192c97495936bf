import Basics

/// What one walk of the checkout finds for the rules: source files (for the required-reason
/// APIs), app icon sets and privacy manifests. The walk never follows a link (a folder link
/// could lead out of the checkout, or in a loop), skips build output and dependency checkouts,
/// and stops at a budget, saying so.
public struct PreflightFiles: Sendable {
    /// Swift, Objective-C and C sources (relative paths).
    public var sources: [String] = []
    /// `.appiconset` folders (relative paths).
    public var appIconSets: [String] = []
    /// Icon Composer files (`AppIcon.icon` folders, Xcode 26), relative paths.
    public var iconComposerFiles: [String] = []
    /// `PrivacyInfo.xcprivacy` files (relative paths).
    public var privacyManifests: [String] = []
    /// True when the walk stopped at its budget (the rules then say what they could not see).
    public var truncated = false
    /// The budget the walk had (entries looked at).
    public var budget = PreflightFiles.budget

    /// Folders never walked: version control, build output, dependency checkouts.
    static let skipped: Set<String> = [".git", ".build", "build", "DerivedData", "Pods", "Carthage", "node_modules", ".swiftpm", "vendor"]
    static let sourceExtensions: Set<String> = ["swift", "m", "mm", "c", "cc", "cpp", "h"]
    /// At most this many entries are looked at.
    public static let budget = 200_000
    /// The test-only environment variable that lowers the budget (never raises it), so that a test
    /// through the binary need not create 200,001 files: `SLIPWAY_TEST_PREFLIGHT_WALK_BUDGET=10`.
    public static let testBudgetVariable = "SLIPWAY_TEST_PREFLIGHT_WALK_BUDGET"

    /// The budget for an environment: `budget`, or a smaller one the test variable gives.
    public static func budget(environment value: String?) -> Int {
        guard let value, let number = Int(value), number > 0 else { return budget }
        return min(number, budget)
    }

    /// Walks `root` (absolute), looking at no more than `budget` entries.
    public static func walk(root: String, fileSystem: any FileSystem, budget: Int = PreflightFiles.budget) -> PreflightFiles {
        var found = PreflightFiles()
        found.budget = budget
        var pending = [""]
        var seen = 0
        while let relative = pending.popLast() {
            let folder = relative.isEmpty ? root : root + "/" + relative
            guard let entries = try? fileSystem.kinds(ofDirectory: folder) else { continue }
            for (name, kind) in entries.sorted(by: { $0.name < $1.name }) {
                seen += 1
                if seen > budget { found.truncated = true; return found }
                let path = relative.isEmpty ? name : relative + "/" + name
                switch kind {
                case .directory:
                    if name.hasSuffix(".appiconset") { found.appIconSets.append(path); continue }
                    if name.hasSuffix(".icon") { found.iconComposerFiles.append(path); continue }
                    if skipped.contains(name) || name.hasSuffix(".xcodeproj") || name.hasSuffix(".xcworkspace") { continue }
                    pending.append(path)
                case .file:
                    if name == PreflightProject.privacyManifestName { found.privacyManifests.append(path); continue }
                    if let dot = name.lastIndex(of: "."), sourceExtensions.contains(String(name[name.index(after: dot)...])) {
                        found.sources.append(path)
                    }
                default:
                    continue
                }
            }
        }
        found.sources.sort()
        found.appIconSets.sort()
        found.privacyManifests.sort()
        return found
    }
}
