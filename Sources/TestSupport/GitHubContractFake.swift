import Foundation

/// CONTRACT FAKE — not GitHub. A loopback server that implements the documented GitHub REST
/// endpoints the release uploader calls, with the documented shapes and status codes, so that
/// the client can be tested without the internet:
///
/// - `GET /repos/{o}/{r}/releases/tags/{tag}` → 200 release | 404 (drafts are not returned)
/// - `GET /repos/{o}/{r}/releases?per_page=&page=` → 200 [release] (drafts included)
/// - `POST /repos/{o}/{r}/releases` → 201 release | 422 `already_exists`
/// - `GET /repos/{o}/{r}/releases/{id}/assets` → 200 [asset]
/// - `DELETE /repos/{o}/{r}/releases/assets/{id}` → 204
/// - `POST {upload}/repos/{o}/{r}/releases/{id}/assets?name=` → 201 asset | 422 `already_exists`
///
/// Every request must carry `Authorization: Bearer <token>` (401 otherwise). The upload host is
/// the same server under `/uploads`. It agrees with GitHub only as far as those documents go;
/// anything beyond them (rate limits, renaming of odd asset names, ...) is not modelled.
public final class GitHubContractFake: @unchecked Sendable {
    private let server: PythonScriptServer
    /// The token requests must carry.
    public let token: String

    /// Starts the fake accepting `token`.
    public init(token: String = "ghs_contract_fake_token") throws {
        self.token = token
        server = try PythonScriptServer(script: Self.script, arguments: [token], name: "github-contract-fake")
    }

    /// The API base URL (`api-url`).
    public var apiURL: String { server.url() }
    /// The upload base URL (`upload-url`).
    public var uploadURL: String { server.url("/uploads") }

    /// Makes the next `count` asset uploads answer 500 (after reading the body).
    public func failUploads(_ count: Int) throws {
        try server.post("/_control", json: "{\"fail_uploads\": \(count)}")
    }

    /// Adds a release directly (as if made earlier), returning its id.
    @discardableResult
    public func seedRelease(repository: String, tag: String, draft: Bool = false) throws -> Int {
        let body = "{\"repository\": \"\(repository)\", \"tag_name\": \"\(tag)\", \"draft\": \(draft)}"
        try server.post("/_seed", json: body)
        let state = try self.state()
        return state.releases.last?.id ?? -1
    }

    /// The fake's state.
    public struct State: Decodable, Sendable {
        public struct Release: Decodable, Sendable { public var id: Int; public var tag_name: String; public var draft: Bool }
        public struct Asset: Decodable, Sendable {
            public var id: Int
            public var release_id: Int
            public var name: String
            public var size: Int
            public var content_type: String
            public var sha256: String
        }
        public var releases: [Release]
        public var assets: [Asset]
        /// "METHOD path" of every request, in order.
        public var requests: [String]
    }

    /// The releases, assets and request log.
    public func state() throws -> State {
        try JSONDecoder().decode(State.self, from: server.get("/_state"))
    }

    static let script = #"""
        import hashlib, http.server, json, sys, threading, urllib.parse

        TOKEN = sys.argv[1]
        lock = threading.Lock()
        db = {"releases": [], "assets": [], "requests": [], "next_id": 1, "fail_uploads": 0}

        def new_id():
            db["next_id"] += 1
            return db["next_id"]

        def release_json(base, r):
            return {"id": r["id"], "tag_name": r["tag_name"], "name": r.get("name"), "draft": r["draft"],
                    "prerelease": r.get("prerelease", False), "body": r.get("body"),
                    "html_url": "https://github.example/%s/releases/tag/%s" % (r["repository"], r["tag_name"]),
                    "upload_url": base + "/uploads/repos/%s/releases/%d/assets{?name,label}" % (r["repository"], r["id"])}

        def asset_json(a):
            return {"id": a["id"], "name": a["name"], "size": a["size"], "state": a["state"], "content_type": a["content_type"],
                    "browser_download_url": "https://github.example/%s/releases/download/%s/%s" % (a["repository"], a["tag"], a["name"])}

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def reply(self, status, value=None):
                body = b"" if value is None else json.dumps(value).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            \#(PythonSnippets.readBody)

            def base(self):
                return "http://127.0.0.1:%d" % self.server.server_address[1]

            def handle_any(self):
                url = urllib.parse.urlsplit(self.path)
                parts = [urllib.parse.unquote(p) for p in url.path.strip("/").split("/")]
                query = dict(urllib.parse.parse_qsl(url.query))
                body = self.read_body()
                with lock:
                    if parts[0] == "_control":
                        db.update(json.loads(body)); return self.reply(200, {})
                    if parts[0] == "_seed":
                        seed = json.loads(body)
                        db["releases"].append({"id": new_id(), "repository": seed["repository"], "tag_name": seed["tag_name"],
                                               "draft": seed["draft"], "name": seed["tag_name"]})
                        return self.reply(200, {})
                    if parts[0] == "_state":
                        return self.reply(200, {"releases": [{"id": r["id"], "tag_name": r["tag_name"], "draft": r["draft"]} for r in db["releases"]],
                                                "assets": [{k: a[k] for k in ("id", "release_id", "name", "size", "content_type", "sha256")} for a in db["assets"]],
                                                "requests": db["requests"]})
                    db["requests"].append("%s %s" % (self.command, self.path))
                    if self.headers.get("Authorization") != "Bearer " + TOKEN:
                        return self.reply(401, {"message": "Bad credentials", "documentation_url": "https://docs.github.com/rest"})
                    uploads = parts[0] == "uploads"
                    if uploads:
                        parts = parts[1:]
                    if len(parts) < 4 or parts[0] != "repos" or parts[3] != "releases":
                        return self.reply(404, {"message": "Not Found"})
                    repo = parts[1] + "/" + parts[2]
                    rest = parts[4:]
                    return self.route(repo, rest, query, body, uploads)

            def route(self, repo, rest, query, body, uploads):
                releases = [r for r in db["releases"] if r["repository"] == repo]
                if uploads and self.command == "POST" and len(rest) == 2 and rest[1] == "assets":
                    return self.upload(repo, int(rest[0]), query, body)
                if self.command == "GET" and len(rest) == 2 and rest[0] == "tags":
                    found = [r for r in releases if r["tag_name"] == rest[1] and not r["draft"]]
                    return self.reply(200, release_json(self.base(), found[0])) if found else self.reply(404, {"message": "Not Found"})
                if self.command == "GET" and not rest:
                    page, per_page = int(query.get("page", 1)), int(query.get("per_page", 30))
                    chosen = releases[(page - 1) * per_page: page * per_page]
                    return self.reply(200, [release_json(self.base(), r) for r in chosen])
                if self.command == "POST" and not rest:
                    data = json.loads(body)
                    if any(r["tag_name"] == data["tag_name"] for r in releases):
                        return self.reply(422, {"message": "Validation Failed", "errors": [{"resource": "Release", "code": "already_exists", "field": "tag_name"}]})
                    release = {"id": new_id(), "repository": repo, "tag_name": data["tag_name"], "name": data.get("name"),
                               "draft": data.get("draft", False), "prerelease": data.get("prerelease", False), "body": data.get("body")}
                    db["releases"].append(release)
                    return self.reply(201, release_json(self.base(), release))
                if self.command == "GET" and len(rest) == 2 and rest[1] == "assets":
                    page, per_page = int(query.get("page", 1)), int(query.get("per_page", 30))
                    assets = [a for a in db["assets"] if a["release_id"] == int(rest[0])][(page - 1) * per_page: page * per_page]
                    return self.reply(200, [asset_json(a) for a in assets])
                if self.command == "DELETE" and len(rest) == 2 and rest[0] == "assets":
                    before = len(db["assets"])
                    db["assets"] = [a for a in db["assets"] if a["id"] != int(rest[1])]
                    return self.reply(204) if len(db["assets"]) < before else self.reply(404, {"message": "Not Found"})
                return self.reply(404, {"message": "Not Found"})

            def upload(self, repo, release_id, query, body):
                release = [r for r in db["releases"] if r["id"] == release_id and r["repository"] == repo]
                if not release:
                    return self.reply(404, {"message": "Not Found"})
                if db["fail_uploads"] > 0:
                    db["fail_uploads"] -= 1
                    return self.reply(500, {"message": "Server Error"})
                name = query.get("name")
                if not name:
                    return self.reply(422, {"message": "Validation Failed", "errors": [{"resource": "ReleaseAsset", "code": "missing_field", "field": "name"}]})
                if any(a["release_id"] == release_id and a["name"] == name for a in db["assets"]):
                    return self.reply(422, {"message": "Validation Failed", "errors": [{"resource": "ReleaseAsset", "code": "already_exists", "field": "name"}]})
                asset = {"id": new_id(), "release_id": release_id, "repository": repo, "tag": release[0]["tag_name"], "name": name,
                         "size": len(body), "state": "uploaded", "content_type": self.headers.get("Content-Type", ""),
                         "sha256": hashlib.sha256(body).hexdigest()}
                db["assets"].append(asset)
                return self.reply(201, asset_json(asset))

            do_GET = do_POST = do_DELETE = do_PATCH = handle_any

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#
}
