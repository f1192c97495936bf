import Basics
import Foundation
import Testing
import TestSupport
import TestThreads

/// What a pull request's checkout can make the check commands do: run nothing of its own, print
/// nothing a terminal acts on.
@Suite(.dedicatedThreads) struct UntrustedCheckoutTests {
    /// A plugin that leaves a marker outside the project whenever it is executed.
    static func plugin(marker: String) -> String {
        """
        #!/bin/sh
        touch '\(marker)'
        request=$(cat)
        case "$request" in
          *'"action":"describe"'*) echo '{"event":"description","protocol":1,"summary":"Greets","options":[]}' ;;
          *) echo '{"event":"result","status":"success"}' ;;
        esac
        """
    }

    struct Fixture {
        let project: TemporaryDirectory
        let outside: TemporaryDirectory
        var marker: String { outside.path + "/plugin-ran" }
        var markerExists: Bool { FileManager.default.fileExists(atPath: marker) }

        init(pluginFolder: String = ".slipway/bin") throws {
            project = try TemporaryDirectory(prefix: "slipway-untrusted")
            outside = try TemporaryDirectory(prefix: "slipway-outside")
            try project.write("lanes/greet.yml", "steps:\n  - greet: {}\n")
            try project.write(pluginFolder + "/slipway-step-greet", UntrustedCheckoutTests.plugin(marker: outside.path + "/plugin-ran"))
            chmod(project.path + "/" + pluginFolder + "/slipway-step-greet", 0o755)
        }

        func slipway(_ arguments: [String], environment: [String: String?] = [:]) throws -> CommandResult {
            var environment = environment
            if environment["XDG_CONFIG_HOME"] == nil { environment["XDG_CONFIG_HOME"] = outside.path + "/config" }
            environment["GITHUB_ACTIONS"] = .some(nil)
            return try CommandResult.run(Binaries.slipway, arguments, in: project.path, environment: environment)
        }

        func digest(_ relative: String) throws -> String {
            let result = try CommandResult.run("/usr/bin/env", ["sha256sum", project.path + "/" + relative])
            return String(result.standardOutput.prefix(64))
        }
    }

    func untrustedMessage(_ fixture: Fixture, path: String = ".slipway/bin/slipway-step-greet") throws -> String {
        let digest = try fixture.digest(path)
        return "plugin '\(path)' comes from the checkout, and this command runs no checkout executable unless asked "
            + "(it would have to run it to learn its options). If you trust this version of it, pass --trust-plugins, "
            + "or add its SHA-256 to the trust file outside the checkout: echo '\(digest)  \(path)' >> ~/.config/slipway/trusted-plugins"
    }

    @Test func checkCommandsRunNoCheckoutPlugin() throws {
        let fixture = try Fixture()
        let message = try untrustedMessage(fixture)
        let before = try Snapshot.of(fixture.project.path)
        let commands: [[String]] = [
            ["validate"], ["validate", "greet"], ["run", "greet", "--dry-run"], ["step", "greet"],
            ["ci", "export", "greet", "--to", "github-actions"], ["ci", "check", "greet", "--to", "gitlab", "--file", ".gitlab-ci.yml"],
        ]
        for command in commands {
            let result = try fixture.slipway(command)
            #expect(result.status == 2, "\(command): \(result.standardError)")
            #expect(result.standardError.contains(message), "\(command): \(result.standardError)")
            #expect(!fixture.markerExists, "\(command) executed the checkout's plugin")
        }
        let steps = try fixture.slipway(["steps"])
        #expect(steps.standardError.contains("slipway-step-greet: " + message), "\(steps.standardError)")
        #expect(!fixture.markerExists, "'steps' executed the checkout's plugin")
        #expect(try Snapshot.of(fixture.project.path) == before)
    }

    @Test func aPathFolderInsideTheProjectIsCheckoutContentToo() throws {
        let fixture = try Fixture(pluginFolder: "tools/bin")
        let path = fixture.project.path + "/tools/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try fixture.slipway(["validate"], environment: ["PATH": path])
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains(try untrustedMessage(fixture, path: "tools/bin/slipway-step-greet")), "\(result.standardError)")
        #expect(!fixture.markerExists)
    }

    /// A hostile `sh` in a `PATH` folder inside the checkout: it leaves the marker, then acts as `sh`.
    static func hostileShell(marker: String) -> String {
        "#!/bin/sh\ntouch '\(marker)'\nexec /bin/sh \"$@\"\n"
    }

    /// A trusted plugin `#!/usr/bin/env sh` would run whatever `sh` comes first on PATH: a PATH
    /// folder inside the checkout supplies one, which must be trusted itself.
    @Test func aTrustedPluginsEnvInterpreterFromTheCheckoutMustBeTrustedToo() throws {
        let fixture = try Fixture()
        let interpreterMarker = fixture.outside.path + "/interpreter-ran"
        try fixture.project.write(".slipway/bin/slipway-step-greet",
                                  UntrustedCheckoutTests.plugin(marker: fixture.marker).replacingOccurrences(of: "#!/bin/sh", with: "#!/usr/bin/env sh"))
        try fixture.project.write("tools/bin/sh", Self.hostileShell(marker: interpreterMarker))
        chmod(fixture.project.path + "/tools/bin/sh", 0o755)
        let pluginDigest = try fixture.digest(".slipway/bin/slipway-step-greet")
        try fixture.outside.write("config/slipway/trusted-plugins", "\(pluginDigest)  greet\n")
        let path = fixture.project.path + "/tools/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let before = try Snapshot.of(fixture.project.path)
        let refused = try fixture.slipway(["validate"], environment: ["PATH": path])
        #expect(refused.status == 2, "\(refused.standardError)")
        let shellDigest = try fixture.digest("tools/bin/sh")
        #expect(refused.standardError.contains(
            "plugin '.slipway/bin/slipway-step-greet' would run 'tools/bin/sh' (found by its #!/usr/bin/env on PATH), which "
                + "comes from the checkout, and this command runs no checkout executable unless asked; trusting the plugin does "
                + "not vouch for its interpreter. If you trust this version of it, pass --trust-plugins, or add its SHA-256 to "
                + "the trust file outside the checkout: echo '\(shellDigest)  tools/bin/sh' >> ~/.config/slipway/trusted-plugins"),
            "\(refused.standardError)")
        #expect(!fixture.markerExists)
        #expect(!FileManager.default.fileExists(atPath: interpreterMarker))
        #expect(try Snapshot.of(fixture.project.path) == before)

        // Trusting the interpreter too is the user's decision, and then both run.
        try fixture.outside.write("config/slipway/trusted-plugins", "\(pluginDigest)  greet\n\(shellDigest)  tools/bin/sh\n")
        let trusted = try fixture.slipway(["validate"], environment: ["PATH": path])
        #expect(trusted.status == 0, "\(trusted.standardError)")
        #expect(fixture.markerExists)
        #expect(FileManager.default.fileExists(atPath: interpreterMarker))
    }

    /// A plugin from outside the checkout (the machine's) is not checked itself, but the `env`
    /// interpreter a checkout PATH folder would give it is.
    @Test func aMachinePluginsEnvInterpreterFromTheCheckoutIsRefused() throws {
        let fixture = try Fixture()
        try FileManager.default.removeItem(atPath: fixture.project.path + "/.slipway/bin/slipway-step-greet")
        let interpreterMarker = fixture.outside.path + "/interpreter-ran"
        try fixture.outside.write("bin/slipway-step-greet",
                                  UntrustedCheckoutTests.plugin(marker: fixture.marker).replacingOccurrences(of: "#!/bin/sh", with: "#!/usr/bin/env sh"))
        chmod(fixture.outside.path + "/bin/slipway-step-greet", 0o755)
        try fixture.project.write("tools/bin/sh", Self.hostileShell(marker: interpreterMarker))
        chmod(fixture.project.path + "/tools/bin/sh", 0o755)
        let path = fixture.project.path + "/tools/bin:" + fixture.outside.path + "/bin:"
            + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let refused = try fixture.slipway(["validate"], environment: ["PATH": path])
        #expect(refused.status == 2, "\(refused.standardError)")
        #expect(refused.standardError.contains("plugin '\(fixture.outside.path)/bin/slipway-step-greet' would run 'tools/bin/sh' "
            + "(found by its #!/usr/bin/env on PATH), which comes from the checkout"), "\(refused.standardError)")
        #expect(!fixture.markerExists)
        #expect(!FileManager.default.fileExists(atPath: interpreterMarker))
        // Without the checkout's folder on PATH, the machine's plugin runs as before.
        let plain = try fixture.slipway(["validate"], environment: ["PATH": fixture.outside.path + "/bin:"
            + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")])
        #expect(plain.status == 0, "\(plain.standardError)")
        #expect(fixture.markerExists)
    }

    @Test func theUserCanOptIn() throws {
        let fixture = try Fixture()
        let flagged = try fixture.slipway(["validate", "--trust-plugins"])
        #expect(flagged.status == 0, "\(flagged.standardError)")
        #expect(fixture.markerExists)
        try FileManager.default.removeItem(atPath: fixture.marker)

        // A trust file outside the checkout, listing this version of the plugin.
        let digest = try fixture.digest(".slipway/bin/slipway-step-greet")
        try fixture.outside.write("config/slipway/trusted-plugins", "# reviewed\n\(digest)  greet\n")
        let listed = try fixture.slipway(["validate"])
        #expect(listed.status == 0, "\(listed.standardError)")
        #expect(fixture.markerExists)
        try FileManager.default.removeItem(atPath: fixture.marker)

        // A changed plugin is another version: no longer trusted.
        try fixture.project.write(".slipway/bin/slipway-step-greet", UntrustedCheckoutTests.plugin(marker: fixture.marker) + "\n# changed\n")
        let changed = try fixture.slipway(["validate"])
        #expect(changed.status == 2, "\(changed.standardError)")
        #expect(!fixture.markerExists)
    }

    @Test func aTrustFileInsideTheCheckoutIsIgnored() throws {
        let fixture = try Fixture()
        let digest = try fixture.digest(".slipway/bin/slipway-step-greet")
        try fixture.project.write("config/slipway/trusted-plugins", "\(digest)\n")
        let result = try fixture.slipway(["validate"], environment: ["XDG_CONFIG_HOME": fixture.project.path + "/config"])
        #expect(result.status == 2, "\(result.standardError)")
        #expect(!fixture.markerExists)
    }

    @Test func aRealRunRunsThePluginsItsLaneUses() throws {
        let fixture = try Fixture()
        let result = try fixture.slipway(["run", "greet"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(fixture.markerExists)
    }

    @Test func controlSequencesFromTheCheckoutNeverReachTheTerminal() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-escapes")
        try folder.write("lanes/show.yml", """
            steps:
              - run: printf '\\033]52;c;SGVsbG8=\\007clip \\033[2Jclear \\033[8mhidden\\033[28m \\033]8;;https://x.invalid\\033\\\\link\\033]8;;\\033\\\\ done\\n'
            """)
        let result = try CommandResult.run(Binaries.slipway, ["run", "show"], in: folder.path, environment: ["GITHUB_ACTIONS": nil])
        #expect(result.status == 0, "\(result.standardError)")
        let printed = result.standardOutput + result.standardError
        #expect(printed.contains("clip clear hidden link done"), "\(printed.debugDescription)")
        for sequence in ["\u{1B}]", "\u{1B}[2J", "\u{1B}[8m", "\u{07}"] {
            #expect(!printed.contains(sequence), "\(sequence.debugDescription) in \(printed.debugDescription)")
        }
    }

    /// A changelog template of 20,000 nested sections (240 KB) overflowed swift-mustache's recursion and
    /// killed the process (SIGSEGV, `finally:` skipped); now the step fails with the limit.
    @Test func aHostileChangelogTemplateFailsTheStepAndFinallyRuns() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-template")
        let outside = try TemporaryDirectory(prefix: "slipway-outside")
        try folder.write("CHANGELOG.md", "# Changelog\n\n## [Unreleased]\n")
        try folder.write("t.mustache", String(repeating: "{{#a}}", count: 20_000) + "x" + String(repeating: "{{/a}}", count: 20_000))
        try folder.write("lanes/notes.yml", """
            steps:
              - changelog.update: { version: 1.0.0, template: t.mustache }
            finally:
              - run: touch '\(outside.path)/finally-ran'
            """)
        for command in ["init -q", "-c user.email=a@b.c -c user.name=A commit -q --allow-empty -m init"] {
            _ = try CommandResult.run("/usr/bin/env", ["git"] + command.split(separator: " ").map(String.init), in: folder.path)
        }
        let before = try Snapshot.of(folder.path)
        let result = try CommandResult.run(Binaries.slipway, ["run", "notes"], in: folder.path, environment: ["GITHUB_ACTIONS": nil])
        #expect(result.status == 1, "\(result.status): \(result.standardError)")
        #expect((result.standardOutput + result.standardError).contains(
            "the changelog template 't.mustache' is invalid: its sections nest more than 32 deep; templates may nest at most 32"),
            "\(result.standardOutput)\(result.standardError)")
        #expect(FileManager.default.fileExists(atPath: outside.path + "/finally-ran"))
        let after = try Snapshot.of(folder.path)
        let changed = Set(after.keys).union(before.keys).filter { after[$0] != before[$0] }
        #expect(changed.allSatisfy { $0.hasPrefix(".slipway") || $0.hasPrefix(".git") }, "\(changed.sorted())")
    }

    /// 261 KB of `{{\n` (inside the size limit) took swift-mustache's parser 42 s: quadratic in
    /// the '{' it meets. Under a 5 s CPU limit the step now fails with the budget, and `finally:` runs.
    @Test func aQuadraticChangelogTemplateIsRefusedWithinACPULimit() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-template-cost")
        let outside = try TemporaryDirectory(prefix: "slipway-outside")
        try folder.write("CHANGELOG.md", "# Changelog\n\n## [Unreleased]\n")
        try folder.write("t.mustache", String(repeating: "{{\n", count: 87_381))
        try folder.write("lanes/notes.yml", """
            steps:
              - changelog.update: { version: 1.0.0, template: t.mustache }
            finally:
              - run: touch '\(outside.path)/finally-ran'
            """)
        for command in ["init -q", "-c user.email=a@b.c -c user.name=A commit -q --allow-empty -m init"] {
            _ = try CommandResult.run("/usr/bin/env", ["git"] + command.split(separator: " ").map(String.init), in: folder.path)
        }
        let result = try CommandResult.run("/usr/bin/prlimit", ["--cpu=5", "--", Binaries.slipway, "run", "notes"], in: folder.path,
                                           environment: ["GITHUB_ACTIONS": nil])
        #expect(result.status == 1, "killed by the CPU limit? \(result.status): \(result.standardError)")
        #expect((result.standardOutput + result.standardError).contains(
            "the changelog template 't.mustache' is invalid: Mustache's parser reads the rest of the template at each '{', and its "
                + "first 174762 would have it read 45812984490 bytes; templates may cost at most 134217728: use fewer tags or a "
                + "shorter template"), "\(result.standardOutput)\(result.standardError)")
        #expect(FileManager.default.fileExists(atPath: outside.path + "/finally-ran"))
        #expect(try String(contentsOfFile: folder.path + "/CHANGELOG.md", encoding: .utf8) == "# Changelog\n\n## [Unreleased]\n")
    }
}
