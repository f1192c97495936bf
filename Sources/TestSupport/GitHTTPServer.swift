import Foundation

/// A smart-HTTP git server on 127.0.0.1 that demands a token: a small Python HTTP server that
/// checks HTTP basic authentication (`x-access-token` / the token) and hands every accepted
/// request to the real `git http-backend`. Used to test credentials end to end; loopback only.
public final class GitHTTPServer: @unchecked Sendable {
    /// The TCP port on 127.0.0.1.
    public let port: Int
    private let process: Process
    private let scratch: TemporaryDirectory

    /// True when `python3` can be started, which this server needs.
    public static var isAvailable: Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import http.server"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Starts serving the repositories below `root`, accepting only `token`.
    /// - Throws: `GitCommandError` when the server does not come up.
    public init(serving root: String, token: String) throws {
        scratch = try TemporaryDirectory(prefix: "slipway-git-http")
        let script = scratch.path + "/server.py"
        try Data(Self.script.utf8).write(to: URL(fileURLWithPath: script))
        let output = Pipe()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, root, token]
        process.environment = GitFixture.environment
        process.standardOutput = output
        try process.run()
        // The script prints its port once it listens; EOF means it died.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(text) else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            throw GitCommandError(arguments: ["http-backend"], status: process.terminationStatus, standardError: text)
        }
        self.port = port
    }

    /// The `http://` URL of the repository `name` (a path relative to the served root).
    public func url(for name: String) -> String {
        "http://127.0.0.1:\(port)/\(name)"
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    private static let script = #"""
        import base64, http.server, os, subprocess, sys

        root, token = sys.argv[1], sys.argv[2]
        expected = "Basic " + base64.b64encode(("x-access-token:" + token).encode()).decode()

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def log_message(self, *args):
                pass

            \#(PythonSnippets.readBody)

            def handle_any(self):
                if self.headers.get("Authorization") != expected:
                    self.send_response(401)
                    self.send_header("WWW-Authenticate", 'Basic realm="slipway-test"')
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                body = self.read_body()
                path, _, query = self.path.partition("?")
                env = dict(os.environ, GIT_PROJECT_ROOT=root, GIT_HTTP_EXPORT_ALL="1", PATH_INFO=path,
                           QUERY_STRING=query, REQUEST_METHOD=self.command,
                           CONTENT_TYPE=self.headers.get("Content-Type", ""), CONTENT_LENGTH=str(len(body)),
                           HTTP_CONTENT_ENCODING=self.headers.get("Content-Encoding", ""),
                           REMOTE_USER="x-access-token", REMOTE_ADDR="127.0.0.1")
                out = subprocess.run(["git", "http-backend"], input=body, env=env, capture_output=True).stdout
                separator = b"\r\n\r\n" if b"\r\n\r\n" in out else b"\n\n"
                head, _, payload = out.partition(separator)
                status, headers = 200, []
                for line in head.decode().splitlines():
                    name, _, value = line.partition(":")
                    if name.lower() == "status":
                        status = int(value.strip().split()[0])
                    elif name:
                        headers.append((name, value.strip()))
                self.send_response(status)
                for name, value in headers:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = handle_any

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#
}
