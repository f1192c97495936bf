import Basics
import Foundation
@testable import Pins
import Testing
import TestSupport
import TestThreads

/// A pinned executable whose checksum does not match the lock is never run, by any command:
/// not for its version (`tools verify`, `verify`, a lane's `requires:`), not by `exec`, not as a
/// pinned plugin. The replaced executable leaves a marker outside the project whenever it runs.
@Suite(.dedicatedThreads) struct CheckedToolsNeverRunTests {
    let platform = ToolPlatform.current

    /// A project with archive tool `tool` (executable `bin/<executable>`) served from loopback,
    /// locked and installed, its cache at `cache` (nil: a folder of its own) — then the installed
    /// executable replaced by a script that touches `marker` and prints the locked version.
    struct Scene {
        let server: LoopbackHTTPServer
        let project: PinsProject
        let outside: TemporaryDirectory
        let executable: String
        var marker: String { outside.path + "/tool-ran" }
        var markerExists: Bool { FileManager.default.fileExists(atPath: marker) }

        init(tool: String = "fmt", executable name: String = "fmt", cacheInsideTheCheckout: Bool = false) throws {
            let platform = ToolPlatform.current
            server = try LoopbackHTTPServer()
            try server.put("\(name)-2.0.0-\(platform).tar.gz", try ArchiveMaker.make(name: name, printing: "\(name) version 2.0.0"))
            project = try PinsProject()
            outside = try TemporaryDirectory(prefix: "slipway-outside")
            if cacheInsideTheCheckout {
                // The GitLab export's layout: SLIPWAY_CACHE_DIR=$CI_PROJECT_DIR/.slipway/cache.
                project.extraEnvironment["SLIPWAY_CACHE_DIR"] = project.path + "/.slipway/cache"
            }
            try project.write("Toolfile", """
                tools:
                  \(tool):
                    archive: \(server.url(for: "\(name)-{version}-{os}-{arch}.tar.gz"))
                    executable: bin/\(name)
                    platforms: [\(platform)]
                    version: 2.0.0

                """)
            for step in [["tools", "lock"], ["tools", "install"]] {
                let result = try project.slipway(step)
                guard result.status == 0 else { throw FixtureError("\(step) failed: \(result.standardError)") }
            }
            let cache = cacheInsideTheCheckout ? project.path + "/.slipway/cache/tools" : project.toolsCache
            executable = "\(cache)/\(tool)/2.0.0/\(platform)/bin/\(name)"
            try "#!/bin/sh\ntouch '\(outside.path)/tool-ran'\necho \"\(name) version 2.0.0\"\n"
                .write(toFile: executable, atomically: false, encoding: .utf8)
        }

        /// The lock's checksum of the executable, and the replaced file's.
        func checksums() throws -> (expected: String, found: String) {
            let lock = try JSONSerialization.jsonObject(with: Data(try project.read("Toolfile.lock").utf8)) as? [String: Any]
            let tools = lock?["tools"] as? [String: Any]
            let entry = tools?.values.first as? [String: Any]
            let expected = (entry?["executables"] as? [String: String])?[ToolPlatform.current.description] ?? ""
            let found = String(try sh("/usr/bin/env", ["sha256sum", executable]).prefix(64))
            return (expected, found)
        }

        func summary(_ tool: String = "fmt") throws -> String {
            let (expected, found) = try checksums()
            return "'\(tool)': checksum: expected \(expected), found \(found) (\(executable)). "
                + "The installed executable was changed; run 'slipway tools install' to restore it."
        }
    }

    @Test func verifyReportsTheMismatchWithoutRunningTheTool() throws {
        let scene = try Scene()
        let (expected, found) = try scene.checksums()
        let verify = try scene.project.slipway(["tools", "verify"])
        #expect(verify.status == 1)
        #expect(verify.standardOutput == "✗ fmt 2.0.0 (archive)\n    checksum: expected \(expected), found \(found) (\(scene.executable))\n"
            + "      The installed executable was changed; run 'slipway tools install' to restore it.\n"
            + "1 tool(s) on \(platform): 0 ok, 1 drifted.\n")
        #expect(!scene.markerExists, "tools verify ran the changed executable")

        let json = try scene.project.slipway(["tools", "verify", "--json"])
        #expect(json.status == 1)
        let report = try JSONDecoder().decode(ToolVerifyReport.self, from: Data(json.standardOutput.utf8))
        #expect(report.tools.first?.failures.map(\.check) == [.checksum])
        #expect(report.tools.first?.checks.map(\.check) == [.locked, .toolfile, .installed, .checksum], "no version check: it would run the tool")

        let all = try scene.project.slipway(["verify"])
        #expect(all.status == 1)
        #expect(all.standardOutput.contains("    checksum: expected \(expected), found \(found) (\(scene.executable))\n"), "\(all.standardOutput)")
        #expect(!scene.markerExists, "verify ran the changed executable")
        withExtendedLifetime(scene.server) {}
    }

    @Test func execAndARequiringLaneRefuseWithoutRunningTheTool() throws {
        let scene = try Scene()
        let summary = try scene.summary()
        let exec = try scene.project.slipway(["exec", "fmt", "--", "--version"])
        #expect(exec.status == 1)
        #expect(exec.standardOutput == "")
        #expect(exec.standardError == "error: " + summary + "\n")
        #expect(!scene.markerExists, "exec ran the changed executable")

        try scene.project.write("lanes/l.yml", "requires: [fmt]\nsteps:\n  - run: touch ran\n")
        let run = try scene.project.slipway(["run", "l"])
        #expect(run.status == 2, "\(run.standardError)")
        #expect((run.standardOutput + run.standardError).contains(
            "lane 'l' cannot start: its required tools do not match the lock.\n" + summary
                + "\nRun 'slipway tools install' (or 'slipway tools verify' for details)."), "\(run.standardOutput)\(run.standardError)")
        #expect(!scene.project.exists("ran"))
        #expect(!scene.markerExists, "the lane's requires: check ran the changed executable")
        withExtendedLifetime(scene.server) {}
    }

    /// The GitLab export keeps the tools cache in the checkout: a branch can commit a changed
    /// `.slipway/cache/tools/…` executable. Checking it runs nothing.
    @Test func aCacheInsideTheCheckoutIsCheckedTheSameWay() throws {
        let scene = try Scene(cacheInsideTheCheckout: true)
        let summary = try scene.summary()
        let verify = try scene.project.slipway(["tools", "verify"])
        #expect(verify.status == 1)
        #expect(verify.standardOutput.contains("    checksum: expected "), "\(verify.standardOutput)")
        let exec = try scene.project.slipway(["exec", "fmt"])
        #expect(exec.status == 1)
        #expect(exec.standardError == "error: " + summary + "\n")
        #expect(!scene.markerExists, "a checkout's executable in the tools cache ran")
        withExtendedLifetime(scene.server) {}
    }

    /// A pinned plugin (`slipway-step-greet` from a tool's folder) that was changed is not asked
    /// to describe itself: its folder leaves the plugin search path, so the step is unknown.
    @Test func aChangedPinnedPluginIsNotRun() throws {
        let scene = try Scene(tool: "greet", executable: "slipway-step-greet")
        try scene.project.write("lanes/l.yml", "steps:\n  - greet: {}\n")
        let validate = try scene.project.slipway(["validate"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(validate.status == 2, "\(validate.standardError)")
        #expect(validate.standardError == "lanes/l.yml:2:5: error: unknown step 'greet'. Run 'slipway steps' for the built-in steps; "
            + "a plugin would be an executable 'slipway-step-greet' on PATH.\n")
        #expect(!scene.markerExists, "the changed pinned plugin was asked to describe itself")
        withExtendedLifetime(scene.server) {}
    }
}
