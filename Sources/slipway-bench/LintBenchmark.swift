import Basics
import Foundation
import PBXProj
import ProjectLint
import Sync
import TestSupport

/// Issue #16's lint figure: every rule (opt-in ones too) over the largest corpus project with
/// its tree (the tracked paths, as a listing), in process; and each rule alone.
///
/// `slipway-bench lint [--runs N] [--corpus DIR]`
enum LintBenchmark {
    static func run(_ arguments: [String]) async throws {
        let runs = Bench.option("--runs", arguments).flatMap { Int($0) } ?? 21
        guard let corpus = Bench.corpusDirectory(arguments) else {
            print("(no corpus: pass --corpus DIR or set SLIPWAY_CORPUS)")
            return
        }
        let entries = try PBXProjCorpusManifest.entries(in: corpus)
        guard let entry = entries.max(by: { (try? $0.bytes().count) ?? 0 < (try? $1.bytes().count) ?? 0 }) else { return }
        let bytes = try entry.bytes()
        let tree = try entry.treePaths()
        var severities: [String: LintSeverity?] = [:]
        for rule in LintRegistry.all { severities[rule.id] = .some(rule.defaultSeverity) }
        let configuration = LintConfiguration(severities: severities)
        print("slipway-bench lint — medians of \(runs) runs, \(entry.baseName) (\(bytes.count) bytes, \(tree.count) tree paths)")
        var findings = 0
        // The headline figures build the tree's listing in every run, as one `slipway xcodeproj
        // lint` reads the disk once; the listing kept between runs is a long-lived process's case.
        let total = Bench.median(runs: runs) {
            let context = LintContext(bytes: bytes, projectName: entry.projectName, pbxprojPath: entry.repositoryPath, files: LintFiles.listed(tree))
            findings = LintEngine.run(context, configuration: configuration).findings.count
        }
        print(String(format: "  lint, all rules, read + tree listing included:  %8.2f ms  (%d findings)", total * 1000, findings))
        let standard = Bench.median(runs: runs) {
            let context = LintContext(bytes: bytes, projectName: entry.projectName, pbxprojPath: entry.repositoryPath, files: LintFiles.listed(tree))
            findings = LintEngine.run(context).findings.count
        }
        print(String(format: "  lint, default rules, read + tree listing included: %5.2f ms  (%d findings)", standard * 1000, findings))
        // The CLI's case: the tree as empty files on disk, scanned in every run.
        let disk = try TemporaryDirectory(prefix: "lint-bench")
        try entry.install(in: disk)
        for path in tree where !ProjectPath.isOutside(path) {
            let full = disk.path + "/" + path
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            FileManager.default.createFile(atPath: full, contents: nil)
        }
        let onDisk = Bench.median(runs: runs) {
            let files = LintFiles.disk(LocalFileSystem(), projectDirectory: disk.path)
            let context = LintContext(bytes: bytes, projectName: entry.projectName, pbxprojPath: disk.path + "/" + entry.projectName + ".xcodeproj/project.pbxproj", files: files)
            findings = LintEngine.run(context).findings.count
        }
        print(String(format: "  lint, default rules, tree on disk scanned in every run: %5.2f ms  (%d findings)", onDisk * 1000, findings))
        let scanOnly = Bench.median(runs: runs) { _ = try? DirectoryListing.scan(root: disk.path, fileSystem: LocalFileSystem(), details: false) }
        print(String(format: "    scan of the tree on disk alone:               %8.2f ms", scanOnly * 1000))
        let listingOnly = Bench.median(runs: runs) { _ = LintFiles.listed(tree).listing() }
        print(String(format: "    tree listing alone:                           %8.2f ms", listingOnly * 1000))
        let files = LintFiles.listed(tree)
        let kept = Bench.median(runs: runs) {
            let context = LintContext(bytes: bytes, projectName: entry.projectName, pbxprojPath: entry.repositoryPath, files: files)
            findings = LintEngine.run(context).findings.count
        }
        print(String(format: "    default rules, listing kept between runs:     %8.2f ms", kept * 1000))
        let read = Bench.median(runs: runs) {
            _ = LintContext(bytes: bytes, projectName: entry.projectName, pbxprojPath: entry.repositoryPath, files: files)
        }
        print(String(format: "    read + group tree:             %8.2f ms", read * 1000))
        let plan = Bench.median(runs: max(3, runs / 3)) {
            let context = LintContext(bytes: bytes, projectName: entry.projectName, pbxprojPath: entry.repositoryPath, files: files)
            _ = GroupFolderMismatchRule().check(context)
        }
        print(String(format: "    read + sync plan (listing too): %7.2f ms", plan * 1000))
        let context = LintContext(bytes: bytes, projectName: entry.projectName, pbxprojPath: entry.repositoryPath, files: files)
        for rule in LintRegistry.all {
            let time = Bench.median(runs: max(3, runs / 3)) { _ = rule.check(context) }
            let name = rule.id + String(repeating: " ", count: max(0, 24 - rule.id.count))
            print("    \(name)" + String(format: "%8.2f ms", time * 1000))
        }
    }
}
