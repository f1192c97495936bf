import Foundation

/// One answer a chat contract fake gives instead of its normal one (fault injection).
public struct ChatFault: Sendable, Hashable {
    /// The HTTP status (429, 500, 400...).
    public var status: Int
    /// The `Retry-After` header's seconds, if any.
    public var retryAfter: Int?
    /// The service's error code for the body (`invalid_payload`, `ratelimited`...); for Slack's
    /// Web API with status 200, an `{"ok": false, "error": ...}` answer. `{path}` in it becomes
    /// the request's path, `{html_path}` the path HTML-escaped (an error page that echoes it).
    public var error: String?

    /// A fault.
    public init(status: Int, retryAfter: Int? = nil, error: String? = nil) {
        self.status = status
        self.retryAfter = retryAfter
        self.error = error
    }

    var json: String {
        var fields = ["\"status\": \(status)"]
        if let retryAfter { fields.append("\"retry_after\": \(retryAfter)") }
        if let error { fields.append("\"error\": \"\(error)\"") }
        return "{" + fields.joined(separator: ", ") + "}"
    }
}

/// What a chat contract fake received.
public struct ChatFakeState: Decodable, Sendable {
    /// "METHOD path" of every request (query strings left out: they hold the credential), in order.
    public var requests: [String]
    /// The JSON bodies it accepted, as sent.
    public var bodies: [String]
    /// The headers of every request, names in lower case, in order.
    public var headers: [[String: String]]
    /// What the client sent that the documents do not allow (empty when it kept the contract).
    public var violations: [String]

    /// The accepted bodies, parsed.
    public func objects() throws -> [[String: Any]] {
        try bodies.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
    }
}

/// The Python behind `SlackContractFake`, `TeamsContractFake` and `WebhookRecorder`: one
/// ThreadingHTTPServer whose first argument picks the service.
enum ChatContractFakeScript {
    static let script = #"""
        import http.server, json, sys, threading, urllib.parse

        MODE, SECRET, TOKEN, CHANNEL = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
        lock = threading.Lock()
        db = {"requests": [], "bodies": [], "headers": [], "violations": [], "faults": [], "posted": 0}
        SCHEMA = "http://adaptivecards.io/schemas/adaptive-card.json"
        SLACK_KEYS = {"text", "blocks", "attachments", "thread_ts", "mrkdwn", "unfurl_links", "unfurl_media"}
        POST_KEYS = SLACK_KEYS | {"channel", "icon_emoji", "icon_url", "username", "link_names", "parse", "reply_broadcast"}

        def slack_blocks_problem(blocks):
            if not isinstance(blocks, list) or not all(isinstance(b, dict) and isinstance(b.get("type"), str) for b in blocks):
                return "blocks is not a list of objects with a type"
            for b in blocks:
                text = b.get("text")
                if b["type"] == "header":
                    if not (isinstance(text, dict) and text.get("type") == "plain_text" and isinstance(text.get("text"), str)):
                        return "a header block's text is not a plain_text object"
                    if len(text["text"]) > 150:
                        return "a header block's text is longer than 150 characters"
                elif b["type"] == "section":
                    if not (isinstance(text, dict) and text.get("type") in ("mrkdwn", "plain_text") and isinstance(text.get("text"), str)):
                        return "a section block's text is not a text object"
                    if len(text["text"]) > 3000:
                        return "a section block's text is longer than 3000 characters"
            return None

        def card_problem(body):
            if body.get("type") != "message" or set(body) - {"type", "attachments"}:
                return "the body is not {type: message, attachments: [...]} (keys %s)" % sorted(body)
            attachments = body.get("attachments")
            if not isinstance(attachments, list) or not attachments:
                return "attachments is not a non-empty list"
            for a in attachments:
                if not isinstance(a, dict) or a.get("contentType") != "application/vnd.microsoft.card.adaptive":
                    return "an attachment's contentType is not application/vnd.microsoft.card.adaptive"
                if set(a) - {"contentType", "content", "contentUrl"}:
                    return "an attachment has undocumented keys %s" % sorted(set(a) - {"contentType", "content", "contentUrl"})
                card = a.get("content")
                if not isinstance(card, dict) or card.get("type") != "AdaptiveCard" or not isinstance(card.get("version"), str):
                    return "an attachment's content is not an AdaptiveCard with a version"
                if "$schema" in card and card["$schema"] != SCHEMA:
                    return "$schema is %r" % card["$schema"]
                elements = card.get("body")
                if not isinstance(elements, list) or not elements:
                    return "the card's body is not a non-empty list"
                for e in elements:
                    if not isinstance(e, dict) or e.get("type") != "TextBlock" or not isinstance(e.get("text"), str):
                        return "a card element is not a TextBlock with text"
                    if set(e) - {"type", "text", "wrap", "size", "weight", "color", "isSubtle"}:
                        return "a TextBlock has undocumented keys %s" % sorted(set(e))
            return None

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def send(self, status, body=b"", content_type="application/json; charset=utf-8", headers=None):
                if isinstance(body, (dict, list)):
                    body = json.dumps(body).encode()
                elif isinstance(body, str):
                    body = body.encode()
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            \#(PythonSnippets.readBody)

            def handle_any(self):
                url = urllib.parse.urlsplit(self.path)
                if url.path == "/_state":
                    with lock:
                        return self.send(200, {k: db[k] for k in ("requests", "bodies", "headers", "violations")})
                if url.path == "/_control":
                    with lock:
                        db["faults"] += json.loads(self.read_body())["faults"]; return self.send(200, {})
                body = self.read_body()
                with lock:
                    db["requests"].append("%s %s" % (self.command, url.path))
                    db["headers"].append({k.lower(): v for k, v in self.headers.items()})
                    return self.route(url, body)

            def violation(self, text):
                db["violations"].append(text)
                return self.send(400, "contract fake: " + text, "text/plain")

            def fault(self, kind):
                if not db["faults"]:
                    return False
                f = db["faults"].pop(0)
                headers = {"Retry-After": str(f["retry_after"])} if "retry_after" in f else {}
                code = f.get("error")
                if code:
                    # An error page that echoes the request's path, as Express's "Cannot POST /…" does,
                    # raw ({path}) or HTML-escaped with every '/' as '&#x2F;' ({html_path}).
                    code = code.replace("{path}", self.path).replace("{html_path}", self.path.replace("&", "&amp;").replace("/", "&#x2F;"))
                if kind == "slack-api":
                    if f["status"] == 200:
                        self.send(200, {"ok": False, "error": code or "internal_error"})
                    else:
                        self.send(f["status"], {"ok": False, "error": code or ("ratelimited" if f["status"] == 429 else "fatal_error")}, headers=headers)
                elif kind == "slack":
                    self.send(f["status"], code or {429: "rate_limited", 500: "rollup_error"}.get(f["status"], "invalid_payload"), "text/html", headers)
                else:
                    self.send(f["status"], {"error": {"code": code or "Fault", "message": "injected fault %d" % f["status"]}}, headers=headers)
                return True

            def parse(self, body):
                try:
                    value = json.loads(body)
                except ValueError:
                    return None
                return value if isinstance(value, dict) else None

            def route(self, url, body):
                if self.command != "POST":
                    return self.violation("undocumented request %s %s" % (self.command, url.path))
                if MODE == "slack":
                    if url.path == "/api/chat.postMessage":
                        return self.post_message(body)
                    if url.path.startswith("/services/"):
                        return self.slack_webhook(url, body)
                    return self.violation("undocumented request POST %s" % url.path)
                if MODE == "teams":
                    return self.teams(url, body)
                return self.webhook(body)

            def slack_webhook(self, url, body):
                if url.path != "/services/" + SECRET:
                    return self.send(404, "no_service", "text/html")
                if self.fault("slack"):
                    return
                if not self.headers.get("Content-Type", "").startswith("application/json"):
                    return self.violation("Content-Type is %r, not application/json" % self.headers.get("Content-Type"))
                value = self.parse(body)
                if value is None:
                    return self.send(400, "invalid_payload", "text/html")
                if set(value) - SLACK_KEYS:
                    return self.violation("undocumented webhook fields %s" % sorted(set(value) - SLACK_KEYS))
                if "blocks" in value and slack_blocks_problem(value["blocks"]):
                    return self.send(400, "invalid_blocks", "text/html")
                if not isinstance(value.get("text"), str) or not value["text"].strip():
                    return self.send(400, "no_text", "text/html")
                db["bodies"].append(body.decode())
                return self.send(200, "ok", "text/html")

            def post_message(self, body):
                if self.fault("slack-api"):
                    return
                if self.headers.get("Content-Type", "").replace(" ", "").lower() != "application/json;charset=utf-8":
                    return self.violation("Content-Type is %r, not application/json; charset=utf-8" % self.headers.get("Content-Type"))
                auth = self.headers.get("Authorization")
                if auth is None:
                    return self.send(200, {"ok": False, "error": "not_authed"})
                if auth != "Bearer " + TOKEN:
                    return self.send(200, {"ok": False, "error": "invalid_auth"})
                value = self.parse(body)
                if value is None:
                    return self.send(200, {"ok": False, "error": "invalid_json"})
                if set(value) - POST_KEYS:
                    return self.violation("undocumented chat.postMessage arguments %s" % sorted(set(value) - POST_KEYS))
                if "token" in value:
                    return self.violation("the token is in the body; send it as Authorization: Bearer")
                if value.get("channel") not in (CHANNEL, "C0SLIPWAY1"):
                    return self.send(200, {"ok": False, "error": "channel_not_found"})
                if "blocks" in value and slack_blocks_problem(value["blocks"]):
                    return self.send(200, {"ok": False, "error": "invalid_blocks"})
                if not isinstance(value.get("text"), str) or not value["text"].strip():
                    return self.send(200, {"ok": False, "error": "no_text"})
                db["bodies"].append(body.decode())
                db["posted"] += 1
                ts = "1700000000.%06d" % db["posted"]
                return self.send(200, {"ok": True, "channel": "C0SLIPWAY1", "ts": ts,
                                       "message": {"type": "message", "text": value["text"], "ts": ts, "bot_id": "B0SLIPWAY"}})

            def teams(self, url, body):
                query = urllib.parse.parse_qs(url.query)
                if url.path != "/workflows/slipway-notify/triggers/manual/paths/invoke" or query.get("api-version") != ["1"]:
                    return self.send(404, {"error": {"code": "WorkflowNotFound", "message": "The workflow was not found."}})
                if query.get("sig") != [SECRET]:
                    return self.send(401, {"error": {"code": "DirectApiAuthorizationRequired", "message": "The signature does not match."}})
                if self.fault("json"):
                    return
                if not self.headers.get("Content-Type", "").startswith("application/json"):
                    return self.violation("Content-Type is %r, not application/json" % self.headers.get("Content-Type"))
                value = self.parse(body)
                if value is None:
                    return self.send(400, {"error": {"code": "InvalidRequestContent", "message": "The request content is not valid JSON."}})
                problem = card_problem(value)
                if problem:
                    return self.violation(problem)
                db["bodies"].append(body.decode())
                return self.send(202, b"", "text/plain")

            def webhook(self, body):
                if self.fault("json"):
                    return
                if not self.headers.get("Content-Type", "").startswith("application/json"):
                    return self.violation("Content-Type is %r, not application/json" % self.headers.get("Content-Type"))
                if self.parse(body) is None:
                    return self.violation("the body is not a JSON object")
                db["bodies"].append(body.decode())
                return self.send(200, {"received": True})

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = handle_any

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#
}
