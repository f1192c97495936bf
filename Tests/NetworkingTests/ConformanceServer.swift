import Basics
import Crypto
import Foundation
import Networking
import TestSupport
import URLSessionHTTP

/// The clients the conformance suites run against: both on Linux (curl is `SystemHTTPClient`
/// there; URLSession is what Mac users run), URLSession alone on macOS.
enum ClientKind: String, CaseIterable, Sendable, CustomStringConvertible {
    #if os(Linux)
    case curl
    #endif
    case urlSession

    var description: String { rawValue }

    func make(defaultTimeout: Duration = .seconds(60), limits: HTTPTransferLimits = .standard) -> any HTTPClient {
        switch self {
        #if os(Linux)
        case .curl: return CurlHTTPClient(defaultTimeout: defaultTimeout, limits: limits)
        #endif
        case .urlSession: return URLSessionHTTPClient(defaultTimeout: defaultTimeout, limits: limits)
        }
    }
}

/// One loopback server for every conformance test. Routes:
/// - `/echo`: 200; the request's method, body length and SHA-256 as `X-Method`, `X-Body-Length`,
///   `X-Body-SHA256`, its headers as a JSON body, and `X-Reply: one` plus two `X-Multi` fields.
/// - `/bytes/N`: N bytes (byte i is i % 256) with a `Content-Length`.
/// - `/status/CODE`: that status, body `status CODE`.
/// - `/redirect/CODE?to=URL`: that status with `Location: URL` (no `Location` without `to`).
/// - `/chain/N`: 302 to `/chain/N-1`; `/chain/0` answers 200 `end`.
/// - `/hold/NAME`: answers only once `/release/NAME` is asked (or after 60 s);
///   `/holdbody/NAME`: sends 200, `Content-Length: 1000000` and 100000 bytes first, then holds.
///   `/seen/NAME` answers `yes` once that hold has its request (waits up to 30 s): the test's
///   cue, so no test sleeps to synchronise.
/// - `/nolength/N`: like `/bytes/N` without `Content-Length` (the body ends when the connection does).
/// - `/slow/N`: 100 bytes every 0.25 s, N times, with a `Content-Length`.
/// - `/endless`: 200 and zeros without end; `/trickle`: 200 and 2 bytes every 0.5 s, 120 times.
/// - `/log`: every request so far but the control routes, one `METHOD path` a line.
final class ConformanceServer: Sendable {
    static let script = #"""
        import sys, json, hashlib, threading, time
        from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler
        from urllib.parse import urlparse, parse_qs
        lock = threading.Lock()
        holds, log = {}, []
        def hold(name):
            with lock:
                return holds.setdefault(name, (threading.Event(), threading.Event()))
        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args): pass
            \#(PythonSnippets.readBody)
            def reply(self, status, body=b'', headers=()):
                self.send_response(status)
                for name, value in headers: self.send_header(name, value)
                self.send_header('Content-Length', str(len(body)))
                self.end_headers()
                if self.command != 'HEAD': self.wfile.write(body)
            def route(self):
                url = urlparse(self.path)
                parts = url.path.strip('/').split('/')
                query = parse_qs(url.query)
                if parts[0] not in ('seen', 'release', 'log'):
                    with lock: log.append(self.command + ' ' + self.path)
                try:
                    body = self.read_body()
                    if parts[0] == 'echo':
                        headers = [[k, v] for k, v in self.headers.items()]
                        self.reply(200, json.dumps(headers).encode(), [
                            ('X-Method', self.command), ('X-Body-Length', str(len(body))),
                            ('X-Body-SHA256', hashlib.sha256(body).hexdigest()),
                            ('X-Reply', 'one'), ('X-Multi', '1'), ('X-Multi', '2')])
                    elif parts[0] == 'bytes':
                        n = int(parts[1])
                        self.reply(200, (bytes(range(256)) * (n // 256 + 1))[:n])
                    elif parts[0] == 'status':
                        self.reply(int(parts[1]), ('status ' + parts[1]).encode())
                    elif parts[0] == 'redirect':
                        to = query.get('to')
                        self.reply(int(parts[1]), b'moved', [('Location', to[0])] if to else [])
                    elif parts[0] == 'chain':
                        n = int(parts[1])
                        if n == 0: self.reply(200, b'end')
                        else: self.reply(302, b'', [('Location', '/chain/%d' % (n - 1))])
                    elif parts[0] == 'hold':
                        arrived, release = hold(parts[1])
                        arrived.set(); release.wait(60)
                        self.reply(200, b'released')
                    elif parts[0] == 'holdbody':
                        arrived, release = hold(parts[1])
                        self.send_response(200); self.send_header('Content-Length', '1000000'); self.end_headers()
                        self.wfile.write(b'\0' * 100000); self.wfile.flush()
                        arrived.set(); release.wait(60)
                        self.wfile.write(b'\0' * 900000)
                    elif parts[0] == 'seen':
                        self.reply(200, b'yes' if hold(parts[1])[0].wait(30) else b'no')
                    elif parts[0] == 'release':
                        hold(parts[1])[1].set(); self.reply(200, b'ok')
                    elif parts[0] == 'log':
                        with lock: self.reply(200, '\n'.join(log).encode())
                    elif parts[0] == 'endless':
                        self.send_response(200); self.end_headers()
                        while True: self.wfile.write(b'\0' * 65536)
                    elif parts[0] == 'nolength':
                        self.send_response(200); self.end_headers()
                        self.wfile.write((bytes(range(256)) * (int(parts[1]) // 256 + 1))[:int(parts[1])])
                    elif parts[0] == 'slow':
                        self.send_response(200); self.send_header('Content-Length', str(100 * int(parts[1]))); self.end_headers()
                        for _ in range(int(parts[1])):
                            self.wfile.write(b'.' * 100); self.wfile.flush(); time.sleep(0.25)
                    elif parts[0] == 'trickle':
                        self.send_response(200); self.end_headers()
                        for _ in range(120):
                            self.wfile.write(b'..'); self.wfile.flush(); time.sleep(0.5)
                    else:
                        self.reply(404, b'no route')
                except (BrokenPipeError, ConnectionResetError):
                    pass
            do_GET = do_HEAD = do_PUT = do_POST = do_DELETE = do_PATCH = route
        server = ThreadingHTTPServer(('127.0.0.1', 0), Handler)
        server.daemon_threads = True
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    let server: PythonScriptServer

    init() throws { server = try PythonScriptServer(script: Self.script, name: "http-conformance") }

    /// `http://127.0.0.1:PORT/path`.
    func url(_ path: String) -> URL { URL(string: server.url(path))! }

    /// A redirect route answering `status` with `Location: target`.
    func redirect(_ status: Int, to target: String) -> URL {
        url("/redirect/\(status)?to=" + (target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target))
    }

    /// Waits until the hold `name` has its request (the server answers when it has).
    func waitUntilSeen(_ name: String) throws -> Bool { String(decoding: try server.get("/seen/\(name)"), as: UTF8.self) == "yes" }

    /// Lets the hold `name` answer.
    func release(_ name: String) throws { _ = try server.get("/release/\(name)") }

    /// The requests served so far, `METHOD path` each.
    func log() throws -> [String] {
        String(decoding: try server.get("/log"), as: UTF8.self).split(separator: "\n").map(String.init)
    }
}

/// Byte i is i % 256, as `/bytes/N` sends.
func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0) } }

/// Lower-case hex SHA-256, as the echo route reports it.
func sha256(_ bytes: some Sequence<UInt8>) -> String {
    SHA256.hash(data: Array(bytes)).map { String(format: "%02x", $0) }.joined()
}

/// Progress reports, collected from any thread.
final class ProgressLog: Sendable {
    private let reports = Locked<[HTTPTransferProgress]>([])
    func add(_ report: HTTPTransferProgress) { reports.withLock { $0.append(report) } }
    var all: [HTTPTransferProgress] { reports.value }
    /// True when no report has fewer bytes than the one before.
    var isMonotonic: Bool { zip(all, all.dropFirst()).allSatisfy { $0.completedBytes <= $1.completedBytes } }
}

/// The request headers the echo route saw, lower-cased names.
func echoedHeaders(_ response: HTTPResponse) throws -> [String: [String]] {
    let pairs = try JSONDecoder().decode([[String]].self, from: Data(response.body))
    return Dictionary(grouping: pairs.filter { $0.count == 2 }, by: { $0[0].lowercased() }).mapValues { $0.map { $0[1] } }
}
