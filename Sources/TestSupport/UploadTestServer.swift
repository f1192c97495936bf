import Foundation

/// A real HTTP server process on 127.0.0.1 that accepts uploads (PUT bodies and
/// multipart/form-data POSTs) and stores them in `storage`, and that can be told how to answer
/// the next uploads: `403`, `500`, or `drop` (read half the body, then close the connection).
/// Every upload request is logged with what was done to it.
public final class UploadTestServer: @unchecked Sendable {
    private let server: PythonScriptServer

    /// One logged upload request.
    public struct LoggedRequest: Decodable, Equatable, Sendable {
        /// The method.
        public var method: String
        /// The path with its query.
        public var path: String
        /// What the server did: `stored`, `403`, `500` or `drop`.
        public var action: String
        /// The Authorization header, if any.
        public var authorization: String?
    }

    /// Starts the server.
    public init() throws {
        server = try PythonScriptServer(script: Self.script, name: "upload-server")
    }

    /// The folder uploads are stored in (by path; multipart files as PATH/FILENAME).
    public var storage: String { server.scratch.path + "/storage" }

    /// `http://127.0.0.1:PORT` + `path`.
    public func url(_ path: String) -> String { server.url(path) }

    /// How to answer the next upload requests, in order; once used up, uploads are stored.
    public func script(_ actions: [String]) throws {
        let list = actions.map { "\"\($0)\"" }.joined(separator: ",")
        try server.post("/_control", json: "{\"script\": [\(list)]}")
    }

    /// Every upload request so far.
    public func log() throws -> [LoggedRequest] {
        try JSONDecoder().decode([LoggedRequest].self, from: server.get("/_log"))
    }

    /// The stored bytes of `relativePath`, or nil.
    public func stored(_ relativePath: String) -> Data? {
        FileManager.default.contents(atPath: storage + "/" + relativePath)
    }

    static let script = #"""
        import email.parser, http.server, json, os, socket, sys, threading, urllib.parse

        storage = os.path.join(os.path.dirname(os.path.abspath(__file__)), "storage")
        os.makedirs(storage, exist_ok=True)
        lock = threading.Lock()
        state = {"script": [], "log": []}

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def reply(self, status, body=b"", content_type="text/plain"):
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            \#(PythonSnippets.readBody)

            def do_GET(self):
                if self.path == "/_log":
                    with lock:
                        self.reply(200, json.dumps(state["log"]).encode(), "application/json")
                else:
                    self.reply(404, b"not found")

            def upload(self):
                if self.path == "/_control":
                    with lock:
                        state["script"] = json.loads(self.read_body())["script"]
                    self.reply(200, b"ok")
                    return
                with lock:
                    action = state["script"].pop(0) if state["script"] else "stored"
                    state["log"].append({"method": self.command, "path": self.path, "action": action,
                                         "authorization": self.headers.get("Authorization")})
                if action == "drop":
                    length = int(self.headers.get("Content-Length") or 0)
                    self.read_body(limit=max(1, length // 2))
                    self.close_connection = True
                    try:
                        self.connection.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
                    self.connection.close()
                    return
                body = self.read_body()
                if action in ("403", "500"):
                    message = b"forbidden: token lacks upload scope" if action == "403" else b"internal error"
                    self.reply(int(action), message)
                    return
                path = os.path.join(storage, urllib.parse.unquote(self.path.split("?")[0]).lstrip("/"))
                if self.command == "PUT":
                    os.makedirs(os.path.dirname(path), exist_ok=True)
                    with open(path, "wb") as out:
                        out.write(body)
                else:
                    head = ("Content-Type: " + self.headers.get("Content-Type", "") + "\r\n\r\n").encode()
                    message = email.parser.BytesParser().parsebytes(head + body)
                    if not message.is_multipart():
                        self.reply(400, b"expected multipart/form-data")
                        return
                    os.makedirs(path, exist_ok=True)
                    for part in message.get_payload():
                        name = part.get_filename()
                        if name:
                            with open(os.path.join(path, name), "wb") as out:
                                out.write(part.get_payload(decode=True))
                self.reply(201, b"created")

            do_PUT = do_POST = upload

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#
}
