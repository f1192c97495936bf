import Foundation

/// CONTRACT FAKE — not DeployGate. A loopback server implementing the one documented endpoint
/// the upload step calls, with the documented request fields and answer shapes, so that the
/// client can be tested without the internet:
///
/// - `POST /api/users/{OWNER_NAME}/apps`, multipart/form-data: `file` (required), `message`,
///   `distribution_key`, `distribution_name`, `release_note`, `disable_notify`; the API key in
///   `Authorization: Bearer` → 200 `{"error": false, "results": {name, package_name, revision,
///   path, file, ...}}`; errors `{"error": true, "message", "because"}` (401 without a valid key,
///   403 for an owner the key may not upload to, 404 for an unknown distribution key).
///
/// Documents relied on: https://docs.deploygate.com/docs/api/application/upload (fields, Bearer
/// header, distribution_key over distribution_name, 404), https://docs.deploygate.com/docs/api/application/show-revision-of-app
/// (the app/revision JSON and the error body), fastlane's `deploygate` action (results.path,
/// results.revision, `message` on error). Any field or header outside those is recorded as a
/// violation and refused with 400, so a test fails on it. Not modelled: plans, limits, apps
/// other than the one seeded, Android specifics.
public final class DeployGateContractFake: @unchecked Sendable {
    private let server: PythonScriptServer
    /// The API key requests must carry.
    public let token: String
    /// The owner the key may upload to.
    public let owner: String

    /// Starts the fake accepting `token` for `owner`.
    public init(token: String = "dg-contract-fake-key-\(UInt32.random(in: 100_000...999_999))", owner: String = "slipway-team") throws {
        self.token = token
        self.owner = owner
        server = try PythonScriptServer(script: Self.script, arguments: [token, owner], name: "deploygate-contract-fake")
    }

    /// The base URL (`deploygate-url`).
    public var baseURL: String { server.url() }

    /// Fault injection: the next `fail` uploads answer 500, the next `drop` uploads lose their
    /// connection halfway through the body.
    public func inject(fail: Int = 0, drop: Int = 0) throws {
        try server.post("/_control", json: "{\"fail\": \(fail), \"drop\": \(drop)}")
    }

    /// The fake's state.
    public struct State: Decodable, Sendable {
        /// One accepted upload.
        public struct Upload: Decodable, Sendable {
            public var owner: String
            public var fields: [String: String]
            public var filename: String
            public var size: Int
            public var sha256: String
            public var revision: Int
        }
        public var uploads: [Upload]
        /// "METHOD path" of every request, in order.
        public var requests: [String]
        /// What the client sent that the documents do not allow (empty when it kept the contract).
        public var violations: [String]
    }

    /// The uploads, request log and violations.
    public func state() throws -> State {
        try JSONDecoder().decode(State.self, from: server.get("/_state"))
    }

    static let script = #"""
        import hashlib, http.server, json, sys, threading

        TOKEN, OWNER = sys.argv[1], sys.argv[2]
        FIELDS = {"message", "distribution_key", "distribution_name", "release_note", "disable_notify"}
        lock = threading.Lock()
        db = {"uploads": [], "requests": [], "violations": [], "fail": 0, "drop": 0, "pages": {"dk-known": "Beta"}}

        def parse_multipart(content_type, body):
            if not content_type.startswith("multipart/form-data; boundary="):
                return None, "Content-Type is %r, not multipart/form-data with a boundary" % content_type
            boundary = content_type.split("boundary=", 1)[1].strip('"').encode()
            parts = body.split(b"--" + boundary)
            if len(parts) < 3 or not parts[-1].startswith(b"--"):
                return None, "the multipart body does not end with the closing boundary"
            fields, files = {}, {}
            for part in parts[1:-1]:
                if not part.startswith(b"\r\n") or not part.endswith(b"\r\n"):
                    return None, "a part is not framed by CRLF"
                head, _, value = part[2:-2].partition(b"\r\n\r\n")
                headers = dict(line.split(": ", 1) for line in head.decode().split("\r\n"))
                disposition = headers.get("Content-Disposition", "")
                params = dict(p.strip().split("=", 1) for p in disposition.split(";")[1:])
                name = params.get("name", "").strip('"')
                if "filename" in params:
                    files[name] = (params["filename"].strip('"'), value)
                else:
                    fields[name] = value.decode()
            return (fields, files), None

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def reply(self, status, value):
                body = json.dumps(value).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def error(self, status, message):
                return self.reply(status, {"error": True, "message": message, "because": message})

            \#(PythonSnippets.readBody)

            def handle_any(self):
                if self.path == "/_state":
                    with lock:
                        return self.reply(200, {k: db[k] for k in ("uploads", "requests", "violations")})
                if self.path == "/_control":
                    with lock:
                        db.update(json.loads(self.read_body())); return self.reply(200, {})
                with lock:
                    db["requests"].append("%s %s" % (self.command, self.path))
                    drop = db["drop"] > 0
                    if drop:
                        db["drop"] -= 1
                if drop:
                    self.read_body(limit=1024)
                    self.close_connection = True
                    return
                body = self.read_body()
                with lock:
                    return self.route(body)

            def violation(self, text):
                db["violations"].append(text)
                return self.error(400, "contract fake: " + text)

            def route(self, body):
                parts = self.path.strip("/").split("/")
                if self.command != "POST" or len(parts) != 4 or parts[:2] != ["api", "users"] or parts[3] != "apps":
                    return self.violation("undocumented request %s %s" % (self.command, self.path))
                if db["fail"] > 0:
                    db["fail"] -= 1
                    return self.reply(500, {"error": True, "message": "internal server error"})
                if self.headers.get("Authorization") != "Bearer " + TOKEN:
                    return self.error(401, "you are not authenticated")
                parsed, problem = parse_multipart(self.headers.get("Content-Type", ""), body)
                if problem:
                    return self.violation(problem)
                fields, files = parsed
                unknown = sorted(set(fields) - FIELDS) + sorted(set(files) - {"file"})
                if unknown:
                    return self.violation("undocumented fields %s" % unknown)
                if "file" not in files:
                    return self.violation("no file part")
                if fields.get("disable_notify", "true") not in ("true", "yes"):
                    return self.violation("disable_notify is %r" % fields["disable_notify"])
                if parts[2] != OWNER:
                    return self.error(403, "application create error: permit")
                if "distribution_key" in fields and fields["distribution_key"] not in db["pages"]:
                    return self.error(404, "distribution not found")
                filename, data = files["file"]
                revision = 1 + len(db["uploads"])
                db["uploads"].append({"owner": parts[2], "fields": fields, "filename": filename, "size": len(data),
                                      "sha256": hashlib.sha256(data).hexdigest(), "revision": revision})
                app = "/users/%s/platforms/ios/apps/com.example.slipway" % parts[2]
                return self.reply(200, {"error": False, "results": {
                    "name": "Slipway Sample", "package_name": "com.example.slipway", "os_name": "iOS", "revision": revision,
                    "message": fields.get("message", ""), "file_size": len(data), "path": app,
                    "revision_url": "https://deploygate.example%s/binaries/%d" % (app, revision),
                    "file": "https://deploygate.example/files/%d/%s" % (revision, filename)}})

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = handle_any

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#
}
