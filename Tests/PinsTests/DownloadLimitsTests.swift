import Basics
import Foundation
@testable import Pins
import Testing
import TestSupport
import TestThreads

/// Issue 23 item 7: a server that sends an endless body, or a trickle of 2 bytes every half
/// second, cannot fill the disk or hold `tools lock` / `tools install` forever. The size cap
/// and the stall timeout are set small here so that the tests end quickly; what ends them is
/// the client's error, never a timer in the test.
@Suite(.dedicatedThreads) struct DownloadLimitsTests {
    /// `/endless/…`: 200 and zeros without end. `/trickle/…`: 200 and 2 bytes every 0.5 s, 120
    /// times (a bounded run even when nothing stops it: then it ends with a 240-byte file).
    /// `/once/…`: the archive (`argv[1]`) the first time, a trickle after.
    static let script = #"""
        import sys, time, threading
        from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler
        archive = open(sys.argv[1], 'rb').read()
        seen = set()
        lock = threading.Lock()
        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args): pass
            def do_GET(self):
                with lock:
                    first = self.path not in seen
                    seen.add(self.path)
                try:
                    if self.path.startswith('/endless/'):
                        self.send_response(200); self.end_headers()
                        chunk = b'\0' * 65536
                        while True: self.wfile.write(chunk)
                    elif self.path.startswith('/trickle/') or (self.path.startswith('/once/') and not first):
                        self.send_response(200); self.end_headers()
                        for _ in range(120):
                            self.wfile.write(b'..'); self.wfile.flush(); time.sleep(0.5)
                    else:
                        self.send_response(200); self.send_header('Content-Length', str(len(archive))); self.end_headers()
                        self.wfile.write(archive)
                except (BrokenPipeError, ConnectionResetError):
                    pass
        server = ThreadingHTTPServer(('127.0.0.1', 0), Handler)
        server.daemon_threads = True
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    let platform = ToolPlatform.current

    func server() throws -> PythonScriptServer {
        let folder = try TemporaryDirectory(prefix: "slipway-limits-archive")
        let archive = try folder.write("fmt.tar.gz", "")
        try ArchiveMaker.make(name: "fmt", printing: "fmt version 2.0.0").write(to: URL(fileURLWithPath: archive))
        return try PythonScriptServer(script: Self.script, arguments: [archive], name: "limits")
    }

    func project(_ server: PythonScriptServer, path: String) throws -> PinsProject {
        let project = try PinsProject()
        try project.write("Toolfile", """
            tools:
              fmt:
                archive: \(server.url("/\(path)/fmt-{version}-{os}-{arch}.tar.gz"))
                executable: bin/fmt
                platforms: [\(platform)]
                version: 2.0.0

            """)
        return project
    }

    /// The files (not folders) of the project and the cache, with their sizes, for "nothing
    /// changed" checks.
    func snapshot(_ project: PinsProject) -> [String] {
        [project.path, project.cacheFolder.path].flatMap { root in
            (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).compactMap { name -> String? in
                let attributes = try? FileManager.default.attributesOfItem(atPath: root + "/" + name)
                guard attributes?[.type] as? FileAttributeType != .typeDirectory else { return nil }
                return "\(root)/\(name) \((attributes?[.size] as? NSNumber)?.intValue ?? -1)"
            }.sorted()
        }
    }

    /// `slipway` under rlimits: at most 16 MiB per file written and 60 s of CPU, so that an
    /// unbounded download fails here instead of filling the disk.
    func slipway(_ project: PinsProject, _ arguments: [String], _ environment: [String: String]) throws -> CommandResult {
        var env: [String: String?] = ["SLIPWAY_CACHE_DIR": project.cacheFolder.path, "NO_COLOR": "1", "GITHUB_ACTIONS": nil]
        for (key, value) in environment { env[key] = value }
        return try CommandResult.run("/usr/bin/prlimit", ["--fsize=16777216", "--cpu=60", "--", Binaries.slipway] + arguments,
                                     in: project.path, environment: env)
    }

    @Test func anEndlessBodyStopsAtTheSizeCapAndLocksNothing() throws {
        let server = try server()
        let project = try project(server, path: "endless")
        let before = snapshot(project)
        let url = server.url("/endless/fmt-2.0.0-\(platform).tar.gz")
        let lock = try slipway(project, ["tools", "lock"], ["SLIPWAY_DOWNLOAD_MAX_SIZE": "64KiB"])
        #expect(lock.status == 1)
        #expect(lock.standardError == """
            error: Downloading 'fmt' was stopped: '\(url)' sent more than 64 KiB, the size limit of a download; the transfer was stopped and its partial file \
            removed. If the file really is that large, raise the limit with SLIPWAY_DOWNLOAD_MAX_SIZE (for example \
            SLIPWAY_DOWNLOAD_MAX_SIZE=4GiB).

            """, "\(lock.standardError)")
        #expect(!project.exists("Toolfile.lock"))
        #expect(snapshot(project) == before, "no partial download, no lockfile, nothing installed")
    }

    @Test func aTrickleStallsAndInstallsNothing() throws {
        let server = try server()
        let project = try project(server, path: "once")
        let lock = try slipway(project, ["tools", "lock"], [:])
        #expect(lock.status == 0, "\(lock.standardError)")
        let before = snapshot(project)
        let url = server.url("/once/fmt-2.0.0-\(platform).tar.gz")
        let install = try slipway(project, ["tools", "install"], ["SLIPWAY_DOWNLOAD_STALL_TIMEOUT": "1"])
        #expect(install.status == 1)
        #expect(install.standardError.hasSuffix("""
            error: Downloading 'fmt' was stopped: '\(url)' stalled: less than 1 KiB arrived in 1 second; the transfer was stopped and its partial file removed. \
            If the server is only slow, allow it more time with SLIPWAY_DOWNLOAD_STALL_TIMEOUT (seconds, for example \
            SLIPWAY_DOWNLOAD_STALL_TIMEOUT=120).

            """), "\(install.standardError)")
        #expect(snapshot(project) == before, "no partial download, nothing installed")
        #expect(project.temporaryLeftovers().isEmpty)
    }

    @Test func aLimitThatIsNoLimitIsRefused() throws {
        let server = try server()
        let project = try project(server, path: "endless")
        let before = snapshot(project)
        let size = try slipway(project, ["tools", "lock"], ["SLIPWAY_DOWNLOAD_MAX_SIZE": "lots"])
        #expect(size.status == 1)
        #expect(size.standardError == """
            error: SLIPWAY_DOWNLOAD_MAX_SIZE is 'lots', which is not a limit. Set it to a size in bytes, optionally with a unit: \
            1048576, 512MiB, 4GiB, or unset it for the default.

            """, "\(size.standardError)")
        let stall = try slipway(project, ["tools", "install"], ["SLIPWAY_DOWNLOAD_STALL_TIMEOUT": "0"])
        #expect(stall.status == 1)
        #expect(stall.standardError == """
            error: SLIPWAY_DOWNLOAD_STALL_TIMEOUT is '0', which is not a limit. Set it to a whole number of seconds from 1 to \
            86400, e.g. 120, or unset it for the default.

            """, "\(stall.standardError)")
        #expect(snapshot(project) == before)
    }

    // The clients' own caps and stall timeouts (curl and URLSession alike) are tested in
    // NetworkingTests/HTTPClientFailureTests; these tests are about what `tools` does with them.

    @Test func sizesAndLimitsParse() throws {
        #expect(HTTPTransferLimits.parseSize("1048576") == 1_048_576)
        #expect(HTTPTransferLimits.parseSize("512MiB") == 512 << 20)
        #expect(HTTPTransferLimits.parseSize(" 4 GiB ") == 4 << 30)
        #expect(HTTPTransferLimits.parseSize("10k") == 10_240)
        for bad in ["", "0", "-1", "1.5GiB", "lots", "99999999999999999999", "17179869184GiB"] {
            #expect(HTTPTransferLimits.parseSize(bad) == nil, "\(bad)")
        }
        let limits = try HTTPTransferLimits(environment: Environment([:]))
        #expect(limits == .standard)
        #expect(limits.maximumBytes == 1 << 30 && limits.stallTimeout == .seconds(30))
        #expect(HTTPTransferLimits.describe(bytes: 1 << 30) == "1 GiB")
    }
}
