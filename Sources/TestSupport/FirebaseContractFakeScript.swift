/// The Python behind `FirebaseContractFake` (CONTRACT FAKE — not Google; see that type for the
/// endpoints and the documents they follow).
enum FirebaseContractFakeScript {
    static let text = #"""
        import base64, hashlib, http.server, json, secrets, sys, threading, time, urllib.parse
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa

        APP_ID, GROUPS = sys.argv[1], [g for g in sys.argv[2].split(",") if g]
        PROJECT = APP_ID.split(":")[1]
        SCOPE = "https://www.googleapis.com/auth/cloud-platform"
        GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer"
        KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        KEY_ID = secrets.token_hex(20)
        EMAIL = "slipway-ci@slipway-fake.iam.gserviceaccount.com"
        lock = threading.Lock()
        db = {"releases": [], "requests": [], "violations": [], "tokens": [], "operations": {},
              "fail": 0, "drop": 0, "unauthorized": 0, "polls": 2, "never_done": False}

        def b64decode(text):
            return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))

        def google_error(code, status, message):
            return {"error": {"code": code, "message": message, "status": status}}

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def reply(self, status, value, content_type="application/json; charset=UTF-8"):
                body = value if isinstance(value, bytes) else json.dumps(value).encode()
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            \#(PythonSnippets.readBody)

            def base(self):
                return "http://127.0.0.1:%d" % self.server.server_address[1]

            def violation(self, text):
                db["violations"].append(text)
                return self.reply(400, google_error(400, "INVALID_ARGUMENT", "contract fake: " + text))

            def handle_any(self):
                path = urllib.parse.urlsplit(self.path).path
                if path.startswith("/_"):
                    return self.control(path)
                with lock:
                    db["requests"].append("%s %s" % (self.command, self.path))
                    drop = db["drop"] > 0 and path.startswith("/upload/")
                    if drop:
                        db["drop"] -= 1
                if drop:
                    self.read_body(limit=1024)
                    self.close_connection = True
                    return
                body = self.read_body()
                with lock:
                    if path == "/token":
                        return self.token(body)
                    return self.api(path, body)

            def control(self, path):
                if path == "/_service_account":
                    pem = KEY.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                            serialization.NoEncryption()).decode()
                    return self.reply(200, {"type": "service_account", "project_id": "slipway-fake", "private_key_id": KEY_ID,
                                            "private_key": pem, "client_email": EMAIL, "client_id": "1000",
                                            "auth_uri": "https://accounts.google.com/o/oauth2/auth",
                                            "token_uri": self.base() + "/token"})
                if path == "/_ec_key":
                    key = ec.generate_private_key(ec.SECP256R1())
                    return self.reply(200, key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                             serialization.NoEncryption()), "text/plain")
                with lock:
                    if path == "/_control":
                        db.update(json.loads(self.read_body())); return self.reply(200, {})
                    if path == "/_state":
                        return self.reply(200, {"releases": db["releases"], "requests": db["requests"],
                                                "violations": db["violations"], "tokens": db["tokens"]})
                return self.reply(404, {})

            def token(self, body):
                if self.command != "POST" or not self.headers.get("Content-Type", "").startswith("application/x-www-form-urlencoded"):
                    return self.violation("the token request is not a form POST")
                form = dict(urllib.parse.parse_qsl(body.decode()))
                if form.get("grant_type") != GRANT or set(form) != {"grant_type", "assertion"}:
                    return self.violation("token request fields %s" % sorted(form))
                problem = self.check_assertion(form["assertion"])
                if problem:
                    db["violations"].append(problem)
                    return self.reply(400, {"error": "invalid_grant", "error_description": problem})
                token = "ya29.fake-" + secrets.token_urlsafe(24)
                db["tokens"].append(token)
                return self.reply(200, {"access_token": token, "expires_in": 3599, "token_type": "Bearer"})

            def check_assertion(self, jwt):
                parts = jwt.split(".")
                if len(parts) != 3:
                    return "the assertion is not a JWS compact serialization"
                header, claims = json.loads(b64decode(parts[0])), json.loads(b64decode(parts[1]))
                if header != {"alg": "RS256", "typ": "JWT", "kid": KEY_ID}:
                    return "JWT header %s" % header
                now = time.time()
                if set(claims) != {"iss", "scope", "aud", "iat", "exp"} or claims["iss"] != EMAIL or claims["aud"] != self.base() + "/token":
                    return "JWT claims %s" % sorted(claims.items())
                if SCOPE not in claims["scope"].split(" "):
                    return "JWT scope %r" % claims["scope"]
                if abs(claims["iat"] - now) > 300 or not 0 < claims["exp"] - claims["iat"] <= 3600:
                    return "JWT times iat=%s exp=%s (now %d)" % (claims["iat"], claims["exp"], now)
                try:
                    KEY.public_key().verify(b64decode(parts[2]), (parts[0] + "." + parts[1]).encode(), padding.PKCS1v15(), hashes.SHA256())
                except Exception:
                    return "Invalid JWT Signature."
                return None

            def api(self, path, body):
                if self.headers.get("Authorization", "").removeprefix("Bearer ") not in db["tokens"] or db["unauthorized"] > 0:
                    db["unauthorized"] = max(0, db["unauthorized"] - 1)
                    return self.reply(401, google_error(401, "UNAUTHENTICATED", "Request had invalid authentication credentials."))
                app = "projects/%s/apps/%s" % (PROJECT, APP_ID)
                if path.startswith("/upload/v1/"):
                    return self.upload(path[len("/upload/v1/"):], app, body)
                if not path.startswith("/v1/"):
                    return self.violation("undocumented path %s" % path)
                name = path[len("/v1/"):]
                if self.command == "GET" and name in db["operations"]:
                    return self.operation(name)
                if self.command == "PATCH":
                    return self.patch(name, body)
                if self.command == "POST" and name.endswith(":distribute"):
                    return self.distribute(name[:-len(":distribute")], body)
                if not name.startswith(app):
                    return self.reply(404, google_error(404, "NOT_FOUND", "Requested entity was not found."))
                return self.violation("undocumented call %s %s" % (self.command, path))

            def upload(self, target, app, body):
                if self.command != "POST" or not target.endswith("/releases:upload"):
                    return self.violation("undocumented upload %s %s" % (self.command, target))
                if self.headers.get("X-Goog-Upload-Protocol") != "raw" or not self.headers.get("X-Goog-Upload-File-Name"):
                    return self.violation("upload headers %s" % dict(self.headers))
                if target[:-len("/releases:upload")] != app:
                    return self.reply(404, google_error(404, "NOT_FOUND", "Requested entity was not found."))
                if db["fail"] > 0:
                    db["fail"] -= 1
                    return self.reply(500, google_error(500, "INTERNAL", "Internal error encountered."))
                digest = hashlib.sha256(body).hexdigest()
                same = [r for r in db["releases"] if r["sha256"] == digest]
                if same:
                    release, result = same[0], "RELEASE_UNMODIFIED"
                else:
                    release = {"name": "%s/releases/%s" % (app, secrets.token_hex(6)), "sha256": digest, "size": len(body),
                               "filename": self.headers["X-Goog-Upload-File-Name"], "notes": None, "testers": [], "groups": []}
                    db["releases"].append(release)
                    result = "RELEASE_CREATED"
                name = "%s/releases/-/operations/%s" % (app, secrets.token_hex(8))
                db["operations"][name] = {"polls": db["polls"], "release": release["name"], "result": result}
                return self.reply(200, {"name": name})

            def operation(self, name):
                op = db["operations"][name]
                if db["never_done"] or op["polls"] > 0:
                    op["polls"] -= 1
                    return self.reply(200, {"name": name, "done": False})
                release = [r for r in db["releases"] if r["name"] == op["release"]][0]
                return self.reply(200, {"name": name, "done": True, "response": {
                    "@type": "type.googleapis.com/google.firebase.appdistro.v1.UploadReleaseResponse", "result": op["result"],
                    "release": {"name": release["name"], "displayVersion": "1.2.0", "buildVersion": "42",
                                "createTime": "2025-01-01T00:00:00Z",
                                "firebaseConsoleUri": "https://console.firebase.example/" + release["name"],
                                "testingUri": "https://appdistribution.firebase.example/testerapps/" + release["name"].split("/")[-1],
                                "binaryDownloadUri": "https://firebaseappdistribution.example/binary"}}})

            def release(self, name):
                found = [r for r in db["releases"] if r["name"] == name]
                return found[0] if found else None

            def patch(self, name, body):
                query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(self.path).query))
                if query != {"updateMask": "release_notes.text"}:
                    return self.violation("PATCH query %s" % query)
                data = json.loads(body)
                if set(data) - {"name", "releaseNotes"} or not isinstance(data.get("releaseNotes", {}).get("text"), str):
                    return self.violation("PATCH body keys %s" % sorted(data))
                release = self.release(name)
                if release is None:
                    return self.reply(404, google_error(404, "NOT_FOUND", "Requested entity was not found."))
                release["notes"] = data["releaseNotes"]["text"]
                return self.reply(200, {"name": name, "releaseNotes": {"text": release["notes"]}})

            def distribute(self, name, body):
                data = json.loads(body)
                if set(data) - {"testerEmails", "groupAliases"}:
                    return self.violation("distribute body keys %s" % sorted(data))
                release = self.release(name)
                if release is None:
                    return self.reply(404, google_error(404, "NOT_FOUND", "Requested entity was not found."))
                unknown = [g for g in data.get("groupAliases", []) if g not in GROUPS]
                if unknown:
                    return self.reply(400, google_error(400, "FAILED_PRECONDITION", "group aliases not found: %s" % ", ".join(unknown)))
                release["testers"] = sorted(set(release["testers"]) | set(data.get("testerEmails", [])))
                release["groups"] = sorted(set(release["groups"]) | set(data.get("groupAliases", [])))
                return self.reply(200, {})

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = handle_any

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#
}
