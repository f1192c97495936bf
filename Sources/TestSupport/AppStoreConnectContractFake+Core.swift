import Foundation

/// The CONTRACT FAKE's Python: the shared core (JWT checks, store, routing, faults, log) and the
/// server loop. Sections (see `AppStoreConnectContractFake`) go between the two.
extension AppStoreConnectContractFake {
    /// The sections every fake runs, in order. Add a section here to extend the fake.
    public static var standardSections: [String] { [appsSection, buildUploadsSection, notarySection, testFlightSection, appStoreVersionsSection,
                                                       provisioningSection, listingSection, devicesSection, betaTestersSection,
                                                       screenshotsSection] }

    static let core = #"""
        import base64, hashlib, http.server, json, re, socket, sys, threading, time, urllib.parse
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

        CONFIG = json.loads(sys.argv[1])
        KEYS = {k["key_id"]: (k["issuer_id"], serialization.load_pem_public_key(k["public_key"].encode())) for k in CONFIG["keys"]}
        lock = threading.RLock()
        store = {}            # type -> {id: {"type", "id", "attributes", "relationships"}}
        log = []              # request log
        violations = []       # undocumented requests the client made
        faults = []           # queued fault injections
        SETTINGS = {}         # read by sections, set through /_control
        clock = {"offset": 0}
        counter = {"id": 1000}
        ROUTES = []           # (method, compiled regex, handler, allowed params or None, stream)

        def now():
            return time.time() + clock["offset"]

        def new_id():
            counter["id"] += 1
            return str(counter["id"])

        def route(method, pattern, params=None, stream=False, auth=True):
            def register(fn):
                ROUTES.append((method, re.compile("^" + pattern + "$"), fn, params, stream, auth))
                return fn
            return register

        class ApiError(Exception):
            def __init__(self, status, code, title, detail, violation=False):
                self.status, self.code, self.title, self.detail, self.violation = status, code, title, detail, violation

        def error_doc(status, code, title, detail):
            return {"errors": [{"id": new_id(), "status": str(status), "code": code, "title": title, "detail": detail}]}

        def violation(detail, status=400, code="PARAMETER_ERROR.INVALID"):
            raise ApiError(status, code, "A parameter has an invalid value", detail, violation=True)

        def put(resource):
            store.setdefault(resource["type"], {})[resource["id"]] = resource
            return resource

        def get(type_, id_):
            found = store.get(type_, {}).get(id_)
            if found is None:
                raise ApiError(404, "NOT_FOUND", "The specified resource does not exist",
                               "There is no resource of type '%s' with id '%s'" % (type_, id_))
            return found

        def find(type_, predicate=lambda r: True):
            return [r for r in store.get(type_, {}).values() if predicate(r)]

        def related_id(resource, name):
            data = resource.get("relationships", {}).get(name, {}).get("data")
            return data.get("id") if isinstance(data, dict) else None

        def make(type_, attributes, relationships=None, id_=None):
            rels = {k: {"data": v} for k, v in (relationships or {}).items()}
            return put({"type": type_, "id": id_ or new_id(), "attributes": attributes, "relationships": rels})

        def resource_json(r, base, fields=None):
            attributes = r["attributes"] if fields is None else {k: v for k, v in r["attributes"].items() if k in fields}
            out = {"type": r["type"], "id": r["id"], "attributes": attributes,
                   "links": {"self": "%s/v1/%s/%s" % (base, r["type"], r["id"])}}
            if r.get("relationships"):
                out["relationships"] = r["relationships"]
            return out

        def single(req, r):
            return 200, {"data": resource_json(r, req.base, req.fields(r["type"])), "links": {"self": req.base + req.path}}

        def collection(req, items, type_):
            limit = int(req.one("limit") or 50)
            if limit < 1 or limit > 200:
                violation("limit must be between 1 and 200, not %d" % limit)
            start = int(req.one("cursor") or 0)
            chosen = items[start:start + limit]
            doc = {"data": [resource_json(r, req.base, req.fields(type_)) for r in chosen],
                   "links": {"self": req.base + req.raw_path}, "meta": {"paging": {"total": len(items), "limit": limit}}}
            if start + limit < len(items):
                query = [(k, v) for k, v in req.pairs if k != "cursor"] + [("cursor", str(start + limit))]
                doc["links"]["next"] = req.base + req.path + "?" + urllib.parse.urlencode(query)
            return 200, doc

        def b64url(text):
            return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))

        def check_token(header):
            if not header or not header.startswith("Bearer "):
                return "no 'Authorization: Bearer' header"
            parts = header[7:].split(".")
            if len(parts) != 3:
                return "the token is not a compact JWT"
            try:
                head, claims, signature = json.loads(b64url(parts[0])), json.loads(b64url(parts[1])), b64url(parts[2])
            except Exception as error:
                return "the token does not decode: %s" % error
            if set(head) != {"alg", "kid", "typ"} or head["alg"] != "ES256" or head["typ"] != "JWT":
                return "bad header %s" % head
            if head["kid"] not in KEYS:
                return "unknown kid %s" % head["kid"]
            issuer, public_key = KEYS[head["kid"]]
            if claims.get("aud") != "appstoreconnect-v1":
                return "aud is %r" % claims.get("aud")
            if issuer is None and (claims.get("sub") != "user" or "iss" in claims):
                return "an individual key's token needs sub 'user' and no iss"
            if issuer is not None and (claims.get("iss") != issuer or "sub" in claims):
                return "iss is %r, not the key's issuer id" % claims.get("iss")
            iat, exp = claims.get("iat"), claims.get("exp")
            if not isinstance(iat, int) or not isinstance(exp, int):
                return "iat/exp are not integers"
            if exp - iat > 1200:
                return "exp is more than 20 minutes after iat"
            if exp <= now():
                return "the token expired"
            if iat > now() + 60:
                return "iat is in the future"
            if len(signature) != 64:
                return "the signature is %d bytes, not raw r||s (64)" % len(signature)
            r, s = int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
            try:
                public_key.verify(encode_dss_signature(r, s), (parts[0] + "." + parts[1]).encode(), ec.ECDSA(hashes.SHA256()))
            except InvalidSignature:
                return "the signature does not verify with the key's public key"
            return None

        def check_document(req):
            # JSON:API request bodies: {"data": {"type", "id"?, "attributes"?, "relationships"?}} for resources,
            # {"data": identifier or [identifiers]} for relationship calls.
            body = req.json
            if not isinstance(body, dict) or "data" not in body:
                violation("the body is not a JSON:API document with 'data'", 422, "ENTITY_ERROR")
            data = body["data"]
            segments = req.path.strip("/").split("/")
            if "relationships" in segments:
                items = data if isinstance(data, list) else [data]
                if not all(isinstance(i, dict) and set(i) == {"type", "id"} for i in items):
                    violation("relationship data must be identifiers {type, id}", 422, "ENTITY_ERROR")
                return
            if not isinstance(data, dict) or not isinstance(data.get("type"), str):
                violation("data must be an object with a type", 422, "ENTITY_ERROR")
            if set(data) - {"type", "id", "attributes", "relationships"}:
                violation("data has undocumented members %s" % sorted(set(data) - {"type", "id", "attributes", "relationships"}), 422, "ENTITY_ERROR")
            if req.command == "POST" and len(segments) == 2 and (data["type"] != segments[1] or "id" in data):
                violation("POST %s needs data.type '%s' and no id" % (req.path, segments[1]), 409, "ENTITY_ERROR")
            if req.command == "PATCH" and len(segments) == 3 and (data["type"] != segments[1] or data.get("id") != segments[2]):
                violation("PATCH %s needs data.type '%s' and data.id '%s'" % (req.path, segments[1], segments[2]), 409, "ENTITY_ERROR")
            for name, link in data.get("relationships", {}).items():
                if not isinstance(link, dict) or "data" not in link:
                    violation("relationship '%s' is not {data: ...}" % name, 422, "ENTITY_ERROR")
        """#

    static let serve = #"""
        class Request:
            pass

        def take_fault(method, path):
            for fault in faults:
                if fault.get("method", method) == method and re.search(fault.get("path", ""), path) and fault["times"] > 0:
                    fault["times"] -= 1
                    return dict(fault)
            return None

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            \#(PythonSnippets.readBody)

            def reply(self, status, value=None, headers=None):
                body = b"" if value is None else json.dumps(value).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                with lock:
                    used = len(log)
                self.send_header("X-Rate-Limit", "user-hour-lim:3600;user-hour-rem:%d;" % max(0, 3600 - used))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

            def control(self, parts, body):
                with lock:
                    if parts[0] == "_control":
                        change = json.loads(body)
                        faults.extend(change.get("faults", []))
                        SETTINGS.update(change.get("settings", {}))
                        clock["offset"] = change.get("clock_offset", clock["offset"])
                        return self.reply(200, {})
                    if parts[0] == "_seed":
                        seed = json.loads(body)
                        # A list seeds several resources at once (their ids, one a line).
                        made = [make(one["type"], one.get("attributes", {}), one.get("relationships", {}), one.get("id"))
                                for one in (seed if isinstance(seed, list) else [seed])]
                        body = "\n".join(m["id"] for m in made).encode()
                        self.send_response(200)
                        self.send_header("Content-Length", str(len(body)))
                        self.end_headers()
                        return self.wfile.write(body)
                    if parts[0] == "_acknowledge":
                        taken = list(violations)
                        del violations[:]
                        return self.reply(200, taken)
                    if parts[0] == "_state":
                        return self.reply(200, {"requests": log, "violations": violations})
                    if parts[0] == "_store":
                        return self.reply(200, list(store.get(parts[1], {}).values()))
                return self.reply(404, {})

            def handle_any(self):
                url = urllib.parse.urlsplit(self.path)
                if url.path.startswith("/_"):
                    return self.control(url.path.strip("/").split("/"), self.read_body())
                req = Request()
                req.command, req.path, req.raw_path, req.headers = self.command, url.path, self.path, self.headers
                req.pairs = urllib.parse.parse_qsl(url.query, keep_blank_values=True)
                req.query = {}
                for k, v in req.pairs:
                    req.query.setdefault(k, []).append(v)
                req.one = lambda name: (req.query.get(name) or [None])[0]
                req.fields = lambda type_: (req.one("fields[%s]" % type_) or None) and req.one("fields[%s]" % type_).split(",")
                req.base = "http://127.0.0.1:%d" % self.server.server_address[1]
                req.handler = self
                entry = {"method": self.command, "path": url.path, "query": url.query, "status": 0}
                with lock:
                    log.append(entry)
                    fault = take_fault(self.command, url.path)
                if fault and fault.get("drop"):
                    self.read_body(limit=fault.get("drop_after", 0)) if fault.get("drop_after") else None
                    self.close_connection = True
                    try:
                        self.connection.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
                    return
                status, doc, headers = self.dispatch(req, entry, fault)
                entry["status"] = status
                with lock:
                    try:
                        doc = spec_shape_answer(req, status, doc)
                        problems = spec_check_answer(req, status, doc)
                    except Exception as error:
                        problems = ["the OpenAPI check of the answer failed: %r" % error]
                    violations.extend("%s %s: %s" % (req.command, req.path, p) for p in problems)
                if status is not None:
                    self.reply(status, doc, headers)

            def dispatch(self, req, entry, fault):
                matched = [(fn, m, params, stream, auth) for method, rx, fn, params, stream, auth in ROUTES
                           for m in [rx.match(req.path)] if m and method == req.command]
                stream = matched[0][3] if matched else False
                if not stream:
                    req.body = self.read_body()
                    req.json = None
                    if req.body:
                        entry["body"] = req.body.decode("utf-8", "replace")
                if not stream:
                    with lock:
                        try:
                            problems = spec_check_request(req)
                        except Exception as error:
                            problems = ["the OpenAPI check of the request failed: %r" % error]
                        violations.extend("%s %s: %s" % (req.command, req.path, p) for p in problems)
                if fault:
                    headers = {"Retry-After": str(fault["retry_after"])} if "retry_after" in fault else {}
                    if stream:
                        self.read_body()
                    code = fault.get("code") or {401: "NOT_AUTHORIZED", 403: "FORBIDDEN_ERROR", 409: "ENTITY_ERROR",
                                                 429: "RATE_LIMIT_EXCEEDED"}.get(fault["status"], "UNEXPECTED_ERROR")
                    detail = "The contract fake was told to answer so."
                    if fault.get("echo_token"):
                        # As a careless server or proxy does: the credential quoted in the error.
                        detail += " Rejected credentials: " + req.headers.get("Authorization", "")
                    return fault["status"], error_doc(fault["status"], code, "Injected fault", detail), headers
                try:
                    if not matched:
                        with lock:
                            violations.append("%s %s: no such documented endpoint" % (req.command, req.path))
                        if stream:
                            self.read_body()
                        raise ApiError(404, "NOT_FOUND", "The specified resource does not exist", "The path provided does not match a defined resource type.")
                    fn, match, params, stream, auth = matched[0]
                    if auth:
                        problem = check_token(req.headers.get("Authorization"))
                        if problem:
                            if stream:
                                self.read_body()
                            with lock:
                                entry["auth"] = problem
                            raise ApiError(401, "NOT_AUTHORIZED", "Authentication credentials are missing or invalid.", "Provide a properly configured and signed bearer token, and make sure that it has not expired. (" + problem + ")")
                    if params is not None:
                        unknown = [k for k, _ in req.pairs if k not in params]
                        if unknown:
                            violation("undocumented query parameters %s" % unknown)
                    if not stream and req.command in ("POST", "PATCH"):
                        if req.headers.get("Content-Type", "").split(";")[0].strip() != "application/json":
                            violation("Content-Type is %r, not application/json" % req.headers.get("Content-Type"), 415, "PARAMETER_ERROR.INVALID")
                        try:
                            req.json = json.loads(req.body)
                        except ValueError:
                            violation("the body is not JSON", 422, "ENTITY_ERROR")
                        check_document(req)
                    if stream:
                        result = fn(req, entry, **match.groupdict())  # takes the lock itself, around store changes
                    else:
                        with lock:
                            result = fn(req, entry, **match.groupdict())
                    return (result + ({},))[:3] if result is not None else (None, None, {})
                except ApiError as error:
                    if error.violation:
                        with lock:
                            violations.append("%s %s: %s" % (req.command, req.path, error.detail))
                    return error.status, error_doc(error.status, error.code, error.title, error.detail), {}

            do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = handle_any

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    /// Apps: `GET /v1/apps` (filters, fields, limit, cursor) and `GET /v1/apps/{id}`.
    static let appsSection = #"""
        APP_PARAMS = ["filter[bundleId]", "filter[name]", "filter[sku]", "filter[id]", "fields[apps]", "limit", "cursor", "sort", "include"]

        @route("GET", r"/v1/apps", params=APP_PARAMS)
        def list_apps(req, entry):
            items = find("apps")
            for name in ("bundleId", "name", "sku"):
                wanted = req.one("filter[%s]" % name)
                if wanted:
                    values = wanted.split(",")
                    # Apple's bundleId filter also matches ids that only start the same way.
                    items = [a for a in items if any(a["attributes"].get(name, "").startswith(v) for v in values)]
            if req.one("filter[id]"):
                items = [a for a in items if a["id"] in req.one("filter[id]").split(",")]
            return collection(req, sorted(items, key=lambda a: a["id"]), "apps")

        @route("GET", r"/v1/apps/(?P<id>[^/]+)", params=["fields[apps]", "include"])
        def read_app(req, entry, id):
            return single(req, get("apps", id))
        """#
}
