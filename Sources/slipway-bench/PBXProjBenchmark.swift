import Basics
import Foundation
import PBXProj

/// Issue #3's figures: read + write of the 1.47 MB DuckDuckGo project, synthetic 1/10/50 MB
/// projects (ms per MB and peak memory, each size in its own process), and the whole-process
/// `slipway xcodeproj format --check`.
///
/// `slipway-bench pbxproj [--runs N] [--corpus DIR] [--slipway PATH] [--sizes 1,10,50]`
enum PBXProjBenchmark {
    static let largeProject = "duckduckgo__apple-browsers__DuckDuckGo-macOS"

    static func run(_ arguments: [String]) async throws {
        if arguments.first == "size-child" { return try sizeChild(Array(arguments.dropFirst())) }
        let runs = Bench.option("--runs", arguments).flatMap { Int($0) } ?? 21
        let sizes = (Bench.option("--sizes", arguments) ?? "1,10,50").split(separator: ",").compactMap { Int($0) }
        print("slipway-bench pbxproj — medians of \(runs) runs")
        let folder = NSTemporaryDirectory() + "slipway-bench-pbxproj-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }

        if let corpus = Bench.corpusDirectory(arguments, containing: "files/\(largeProject).pbxproj") {
            let project = try installLargeProject(corpus: corpus, in: folder)
            try measureLargeProject(project, runs: runs)
            try await measureWholeProcess(project, runs: runs, arguments: arguments)
        } else {
            print("(no corpus: pass --corpus DIR or set SLIPWAY_CORPUS to measure the DuckDuckGo project)")
        }
        for size in sizes {
            let path = folder + "/Synthetic\(size).xcodeproj/project.pbxproj"
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(try SyntheticProject.make(megabytes: size)).write(to: URL(fileURLWithPath: path))
            let childRuns = size >= 50 ? max(5, runs / 4) : max(7, runs / 2)
            print(try await Bench.run(CommandLine.arguments[0], ["pbxproj", "size-child", path, String(childRuns)]), terminator: "")
        }
    }

    // MARK: - The real 1.47 MB project

    private static func installLargeProject(corpus: String, in folder: String) throws -> String {
        let source = corpus + "/files/\(largeProject).pbxproj"
        let target = folder + "/DuckDuckGo-macOS.xcodeproj"
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: source, toPath: target + "/project.pbxproj")
        return target
    }

    private static func measureLargeProject(_ folder: String, runs: Int) throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/project.pbxproj")))
        let megabytes = Double(bytes.count) / 1_000_000
        var sink = 0
        let readWrite = try Bench.median(runs: runs) {
            let project = try PBXProject(bytes: bytes, projectName: "DuckDuckGo-macOS")
            sink &+= try project.serialized().count
        }
        Bench.report("DuckDuckGo-macOS (\(String(format: "%.2f", megabytes)) MB): read + write", Bench.ms(readWrite), target: "≤ 10 ms")
        let fromDisk = try Bench.median(runs: runs) {
            let project = try PBXProject(contentsOf: folder)
            sink &+= try project.serialized().count
        }
        Bench.report("  the same, reading the file from disk", Bench.ms(fromDisk), target: "—")
        let project = try PBXProject(bytes: bytes, projectName: "DuckDuckGo-macOS")
        guard let file = project.fileReferences.dropFirst(project.fileReferences.count / 2).first else {
            throw BenchError("the DuckDuckGo project has no file references")
        }
        let edited = try Bench.median(runs: runs) {
            var copy = try PBXProject(bytes: bytes, projectName: "DuckDuckGo-macOS")
            try copy.setPath(of: file.id, to: "Renamed/File.swift")
            sink &+= try copy.serialized().count
        }
        Bench.report("  read + rename one file + write", Bench.ms(edited), target: "—")
        let canonical = try Bench.median(runs: runs) {
            let project = try PBXProject(bytes: bytes, projectName: "DuckDuckGo-macOS")
            sink &+= try project.canonicalSerialized().count
        }
        Bench.report("  read + canonical write", Bench.ms(canonical), target: "—")
        let validate = Bench.median(runs: max(5, runs / 3)) { sink &+= project.validate().count }
        Bench.report("  validate (references + group tree)", Bench.ms(validate), target: "—")
        if sink == 42 { print("") }
    }

    private static func measureWholeProcess(_ folder: String, runs: Int, arguments: [String]) async throws {
        let slipway = Bench.slipwayBinary(arguments)
        guard FileManager.default.isExecutableFile(atPath: slipway) else {
            print("(no slipway binary at \(slipway): build it with '\(Bench.buildCommand)' or pass --slipway PATH)")
            return
        }
        let check = try await Bench.median(runs: runs) { try await Bench.run(slipway, ["xcodeproj", "format", folder, "--check"]) }
        Bench.report("whole process: slipway xcodeproj format --check", Bench.ms(check), target: "≤ 30 ms")
        let verify = try await Bench.median(runs: runs) { try await Bench.run(slipway, ["xcodeproj", "verify", folder]) }
        Bench.report("whole process: slipway xcodeproj verify", Bench.ms(verify), target: "—")
        let version = try await Bench.median(runs: runs) { try await Bench.run(slipway, ["--version"]) }
        Bench.report("whole process: slipway --version (start-up alone)", Bench.ms(version), target: "—")
    }

    // MARK: - Synthetic sizes, one process each

    /// Measures one synthetic file in this (fresh) process, so its peak memory is its own.
    private static func sizeChild(_ arguments: [String]) throws {
        guard arguments.count == 2, let runs = Int(arguments[1]) else { throw BenchError("usage: pbxproj size-child PATH RUNS") }
        let path = arguments[0]
        // Warm up on a small project first, so that the baseline includes the code and runtime
        // pages every read touches and the peak above it is what the file's size costs.
        let warmUp = try PBXProject(bytes: try SyntheticProject.make(megabytes: 0), projectName: "WarmUp")
        _ = try warmUp.canonicalSerialized().count + warmUp.serialized().count
        let baseline = memoryKiB("VmRSS")
        let size = Double((try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0)
        let megabytes = size / 1_000_000
        var sink = 0
        let readWrite = try Bench.median(runs: runs) {
            let project = try PBXProject(contentsOf: path)
            sink &+= try project.serialized().count
        }
        let peakReadWrite = memoryKiB("VmHWM")
        let canonical = try Bench.median(runs: max(3, runs / 2)) {
            let project = try PBXProject(contentsOf: path)
            sink &+= try project.canonicalSerialized().count
        }
        let peakCanonical = memoryKiB("VmHWM")
        let label = String(format: "synthetic %.1f MB", megabytes)
        Bench.report("\(label): read + write", Bench.ms(readWrite), target: megabytes >= 40 ? "≤ 400 ms" : "—")
        Bench.report("  read + write per MB", Bench.ms(readWrite / megabytes), target: "flat across sizes")
        Bench.report("  read + canonical write", Bench.ms(canonical), target: "—")
        Bench.report("  read + canonical write per MB", Bench.ms(canonical / megabytes), target: "—")
        print("  peak RSS, read + write:      " + memoryText(peakReadWrite, baseline: baseline, fileBytes: size) + " (target ≤ 4×)")
        print("  peak RSS, + canonical write: " + memoryText(peakCanonical, baseline: baseline, fileBytes: size))
        if sink == 42 { print("") }
    }

    private static func memoryText(_ peak: Int, baseline: Int, fileBytes: Double) -> String {
        let mib = Double(peak) / 1024
        let ratio = Double(peak) * 1024 / fileBytes
        let above = Double(peak - baseline) * 1024 / fileBytes
        return String(format: "%.1f MiB = %.2f× the file; %.2f× counting only what reading and writing added to the %.1f MiB before",
                      mib, ratio, above, Double(baseline) / 1024)
    }

    /// A field of /proc/self/status in KiB (0 where there is no /proc).
    private static func memoryKiB(_ field: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        return 0
    }

    // MARK: - Helpers



}

/// Synthetic projects of a given size, shaped like real ones: modules of 50 Swift files, each
/// module a group, a target with sources/frameworks/resources phases and two configurations.
/// The text is made canonical by Slipway's own writer, as Xcode would have written it.
enum SyntheticProject {
    static func make(megabytes: Int) throws -> [UInt8] {
        let modules = max(1, megabytes * 1_000_000 / 27_600)
        var objects: [String] = []
        var counter = 0
        func id(_ kind: Int) -> String {
            counter += 1
            return hex(kind, 2) + "0000000000000000" + hex(counter, 6)
        }
        let project = id(1), mainGroup = id(2), products = id(3), projectList = id(4)
        var groups: [String] = [], targets: [String] = [], productFiles: [String] = []
        for module in 0..<modules {
            let group = id(5), target = id(6), sources = id(7), frameworks = id(8), resources = id(9)
            let list = id(10), debug = id(11), release = id(12), product = id(13)
            var files: [String] = [], buildFiles: [String] = []
            for file in 0..<50 {
                let reference = id(14), buildFile = id(15)
                files.append(reference)
                buildFiles.append(buildFile)
                objects.append("\(reference) = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = \"Feature\(file)View+Model.swift\"; sourceTree = \"<group>\"; };")
                objects.append("\(buildFile) = {isa = PBXBuildFile; fileRef = \(reference); };")
            }
            objects.append("\(group) = {isa = PBXGroup; children = (\(files.joined(separator: ", "))); path = \"Modules/Module\(module)\"; sourceTree = \"<group>\"; };")
            objects.append("\(sources) = {isa = PBXSourcesBuildPhase; buildActionMask = 2147483647; files = (\(buildFiles.joined(separator: ", "))); runOnlyForDeploymentPostprocessing = 0; };")
            objects.append("\(frameworks) = {isa = PBXFrameworksBuildPhase; buildActionMask = 2147483647; files = (); runOnlyForDeploymentPostprocessing = 0; };")
            objects.append("\(resources) = {isa = PBXResourcesBuildPhase; buildActionMask = 2147483647; files = (); runOnlyForDeploymentPostprocessing = 0; };")
            for (configuration, name) in [(debug, "Debug"), (release, "Release")] {
                objects.append("\(configuration) = {isa = XCBuildConfiguration; buildSettings = {\(settings(module))}; name = \(name); };")
            }
            objects.append("\(list) = {isa = XCConfigurationList; buildConfigurations = (\(debug), \(release)); defaultConfigurationIsVisible = 0; defaultConfigurationName = Release; };")
            objects.append("\(product) = {isa = PBXFileReference; explicitFileType = wrapper.framework; includeInIndex = 0; path = Module\(module).framework; sourceTree = BUILT_PRODUCTS_DIR; };")
            objects.append("\(target) = {isa = PBXNativeTarget; buildConfigurationList = \(list); buildPhases = (\(sources), \(frameworks), \(resources)); buildRules = (); dependencies = (); name = Module\(module); productName = Module\(module); productReference = \(product); productType = \"com.apple.product-type.framework\"; };")
            groups.append(group)
            targets.append(target)
            productFiles.append(product)
        }
        objects.append("\(mainGroup) = {isa = PBXGroup; children = (\((groups + [products]).joined(separator: ", "))); sourceTree = \"<group>\"; };")
        objects.append("\(products) = {isa = PBXGroup; children = (\(productFiles.joined(separator: ", "))); name = Products; sourceTree = \"<group>\"; };")
        objects.append("\(projectList) = {isa = XCConfigurationList; buildConfigurations = (); defaultConfigurationName = Release; };")
        objects.append("\(project) = {isa = PBXProject; buildConfigurationList = \(projectList); mainGroup = \(mainGroup); productRefGroup = \(products); projectDirPath = \"\"; projectRoot = \"\"; targets = (\(targets.joined(separator: ", "))); };")
        let text = "// !$*UTF8*$!\n{ archiveVersion = 1; classes = {}; objectVersion = 77; objects = {\n" + objects.joined(separator: "\n") + "\n}; rootObject = \(project); }\n"
        return try PBXProject(bytes: Array(text.utf8), projectName: "Synthetic\(megabytes)").canonicalSerialized()
    }

    private static func hex(_ value: Int, _ width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func settings(_ module: Int) -> String {
        let keys = ["CODE_SIGN_STYLE = Automatic", "CURRENT_PROJECT_VERSION = 1", "DEFINES_MODULE = YES",
                    "DYLIB_INSTALL_NAME_BASE = \"@rpath\"", "ENABLE_MODULE_VERIFIER = YES", "GENERATE_INFOPLIST_FILE = YES",
                    "INFOPLIST_KEY_NSHumanReadableCopyright = \"\"", "INSTALL_PATH = \"$(LOCAL_LIBRARY_DIR)/Frameworks\"",
                    "MARKETING_VERSION = 1.0", "PRODUCT_BUNDLE_IDENTIFIER = \"com.example.module\(module)\"",
                    "PRODUCT_NAME = \"$(TARGET_NAME:c99extidentifier)\"", "SKIP_INSTALL = YES", "SWIFT_EMIT_LOC_STRINGS = YES",
                    "SWIFT_VERSION = 5.0", "TARGETED_DEVICE_FAMILY = \"1,2\"", "VERSIONING_SYSTEM = \"apple-generic\""]
        return keys.map { $0 + "; " }.joined()
    }
}
