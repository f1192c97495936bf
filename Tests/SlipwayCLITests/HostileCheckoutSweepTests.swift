import Foundation
import Testing
import TestSupport
import TestThreads

/// The adversarial pass of issue 37, kept as a test: every file a command reads from the
/// checkout is replaced in turn by a link to a secret outside the project, a link through its
/// folder, a link to `/dev/zero`, a link to `/proc/self/environ` and a FIFO, and every command
/// that reads it is run through the binary. None may print the secret, change anything outside
/// the project, crash, or hang; each must name the file it refused.
@Suite(.dedicatedThreads) struct HostileCheckoutSweepTests {
    static let canary = "CANARY-7d1f0e-aws_secret_access_key"

    /// How a file of the checkout is made hostile.
    enum Plant: String, CaseIterable {
        case fileLink, folderLink, devZero, procEnviron, fifo
    }

    /// A checkout file and the commands that read it.
    struct Target {
        let path: String
        let commands: [[String]]
    }

    static let targets: [Target] = [
        Target(path: "Podfile.lock", commands: [["deps", "verify"], ["verify"]]),
        Target(path: "Cartfile.resolved", commands: [["deps", "verify"]]),
        Target(path: "Gemfile.lock", commands: [["deps", "verify"]]),
        Target(path: "Toolfile", commands: [["tools", "verify"], ["verify"]]),
        Target(path: "Toolfile.lock", commands: [["tools", "verify"]]),
        Target(path: "lanes/ci.yml", commands: [["validate"], ["lanes"], ["run", "ci", "--dry-run"],
                                                ["ci", "export", "ci", "--to", "github-actions", "--output", "ci-out.yml"]]),
        Target(path: ".slipway/lint.yml", commands: [["xcodeproj", "lint", "App.xcodeproj"]]),
        Target(path: "App.xcodeproj/project.pbxproj", commands: [["xcodeproj", "lint", "App.xcodeproj"],
                                                                 ["run", "bump", "--dry-run"]]),
        Target(path: "Config/VERSION", commands: [["run", "bump", "--dry-run"]]),
        Target(path: "App/Info.plist", commands: [["run", "bump", "--dry-run"]]),
        Target(path: "Config/App.xcconfig", commands: [["run", "bump", "--dry-run"]]),
        Target(path: "Docs/CHANGELOG.md", commands: [["run", "notes", "--dry-run"]]),
        Target(path: "templates/entry.md", commands: [["run", "notes", "--dry-run"]]),
    ]

    /// A small project every command above works on.
    final class Checkout {
        let repository: GitFixture
        let outside: TemporaryDirectory
        var path: String { repository.path }

        init() throws {
            repository = try GitFixture(prefix: "slipway-sweep")
            outside = try TemporaryDirectory(prefix: "slipway-sweep-outside")
            try outside.write("secret.txt", HostileCheckoutSweepTests.canary + "\n")
            let files: [String: String] = [
                "Podfile": "platform :ios, '15.0'\ntarget 'App' do\nend\n",
                "Podfile.lock": "PODFILE CHECKSUM: 0000000000000000000000000000000000000000\n\nCOCOAPODS: 1.15.2\n",
                "Cartfile": "github \"Alamofire/Alamofire\" ~> 5.0\n",
                "Cartfile.resolved": "github \"Alamofire/Alamofire\" \"5.9.1\"\n",
                "Gemfile": "source 'https://rubygems.org'\ngem 'cocoapods'\n",
                "Gemfile.lock": "GEM\n  remote: https://rubygems.org/\n  specs:\n    cocoapods (1.15.2)\n\nPLATFORMS\n  ruby\n\nDEPENDENCIES\n  cocoapods\n\nBUNDLED WITH\n   2.5.0\n",
                "Toolfile": "tools:\n  git:\n    system: git\n    version: \">=2.0\"\n",
                "lanes/ci.yml": "steps:\n  - run: { command: \"true\" }\n",
                "lanes/bump.yml": """
                    steps:
                      - version.bump: { strategy: minor, version-file: Config/VERSION, info-plists: [App/Info.plist], xcodeproj: App.xcodeproj }

                    """,
                "lanes/notes.yml": """
                    steps:
                      - changelog.update: { version: "1.1.0", path: Docs/CHANGELOG.md, template: templates/entry.md }

                    """,
                ".slipway/lint.yml": "rules: {}\n",
                "Config/VERSION": "1.0.0\n",
                "Config/App.xcconfig": "MARKETING_VERSION = 1.0.0\n",
                "App/Info.plist": """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                    <plist version="1.0"><dict><key>CFBundleShortVersionString</key><string>1.0.0</string></dict></plist>

                    """,
                "Docs/CHANGELOG.md": "# Changelog\n\n## [Unreleased]\n",
                "templates/entry.md": "## {{version}}\n",
            ]
            for (relative, text) in files { try repository.write(relative, text) }
            try VersionedXcodeProject.write(targets: [.init("App", xcconfig: "Config/App.xcconfig")], in: repository.path)
            _ = try slipway(["tools", "lock"])
            try repository.git("add", "-A")
            try repository.git("commit", "--quiet", "-m", "feat: first")
            try repository.git("tag", "v1.0.0")
            try repository.commit("fix: second", files: ["note.txt": "x\n"])
        }

        /// Replaces `relative` by its hostile form.
        func plant(_ plant: Plant, at relative: String) throws -> Bool {
            let target = path + "/" + relative
            let manager = FileManager.default
            switch plant {
            case .folderLink:
                let folder = (relative as NSString).deletingLastPathComponent
                guard !folder.isEmpty else { return false }
                // The folder moves out of the project, with the file replaced by the secret.
                let away = outside.path + "/away-" + folder.replacingOccurrences(of: "/", with: "_")
                try manager.moveItem(atPath: path + "/" + folder, toPath: away)
                try manager.removeItem(atPath: away + "/" + (relative as NSString).lastPathComponent)
                try manager.copyItem(atPath: outside.path + "/secret.txt", toPath: away + "/" + (relative as NSString).lastPathComponent)
                try manager.createSymbolicLink(atPath: path + "/" + folder, withDestinationPath: away)
                return true
            case .fileLink, .devZero, .procEnviron:
                try manager.removeItem(atPath: target)
                let destination = plant == .fileLink ? outside.path + "/secret.txt" : plant == .devZero ? "/dev/zero" : "/proc/self/environ"
                try manager.createSymbolicLink(atPath: target, withDestinationPath: destination)
                return true
            case .fifo:
                try manager.removeItem(atPath: target)
                return mkfifo(target, 0o644) == 0
            }
        }

        func slipway(_ arguments: [String]) throws -> CommandResult {
            // A FIFO or a device must never make a command wait or run away: a hang is killed
            // here and fails the test (exit 137), it is not measured.
            let environment: [String: String?] = [
                "XDG_CONFIG_HOME": outside.path + "/config", "GITHUB_ACTIONS": nil,
                "SWEEP_ENVIRON_TOKEN": HostileCheckoutSweepTests.canary,
            ]
            return try CommandResult.run("/usr/bin/timeout", ["--signal=KILL", "300", Binaries.slipway] + arguments, in: path,
                                         environment: environment)
        }
    }

    /// What every refusal says (the door's messages, or the older readers' own).
    static let refusals = ["outside the project", "not a regular file", "symbolic link"]

    @Test(arguments: Plant.allCases)
    func noCommandReadsThroughAHostileFile(plant: Plant) throws {
        var problems: [String] = []
        for target in Self.targets {
            for command in target.commands {
                let checkout = try Checkout()
                guard try checkout.plant(plant, at: target.path) else { continue }
                let outsideBefore = try Snapshot.of(checkout.outside.path)
                let result = try checkout.slipway(command)
                let output = result.standardOutput + result.standardError
                let label = "\(plant) \(target.path): slipway \(command.joined(separator: " "))"
                if output.contains(Self.canary) { problems.append("\(label): printed the secret") }
                if ![0, 1, 2, 4].contains(result.status) { problems.append("\(label): exit \(result.status)\n\(output.suffix(600))") }
                // The refusal names the file, or (a folder link) the folder; `lanes` lists the
                // lane as invalid and points to `validate`, which says why.
                let folder = (target.path as NSString).deletingLastPathComponent
                let listedInvalid = command == ["lanes"] && output.contains("invalid: ")
                let named = output.contains(target.path) || (plant == .folderLink && output.contains("'\(folder)'")) || listedInvalid
                let refused = Self.refusals.contains(where: output.contains) || listedInvalid
                if !refused || !named {
                    problems.append("\(label): no refusal naming the file (exit \(result.status))\n\(output.suffix(600))")
                }
                if try Snapshot.of(checkout.outside.path) != outsideBefore { problems.append("\(label): changed files outside the project") }
                for (relative, value) in try Snapshot.of(checkout.path) where !value.hasPrefix("link") && !value.hasPrefix("special") {
                    let data = FileManager.default.contents(atPath: checkout.path + "/" + relative) ?? Data()
                    if String(decoding: data, as: UTF8.self).contains(Self.canary) {
                        problems.append("\(label): wrote the secret into \(relative)")
                    }
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) problem(s):\n\(problems.joined(separator: "\n"))")
    }
}
