import Foundation

extension AppStoreConnectContractFake {
    /// CONTRACT FAKE section for Apple's Notary API, as documented at
    /// https://developer.apple.com/documentation/notaryapi (Submit Software
    /// `POST /notary/v2/submissions` with `submissionName`, `sha256`, optional `notifications`
    /// [{channel, target}] → NewSubmissionResponse `data.attributes` {awsAccessKeyId,
    /// awsSecretAccessKey, awsSessionToken, bucket, object}; Get Submission Status
    /// `GET /notary/v2/submissions/{id}` → {createdDate, name, status: Accepted | In Progress |
    /// Invalid | Rejected}; Get Previous Submissions `GET /notary/v2/submissions` (the 100 most
    /// recent); Get Submission Log `GET /notary/v2/submissions/{id}/logs` → `developerLogUrl`),
    /// https://developer.apple.com/documentation/notaryapi/submitting-software-for-notarization-over-the-web
    /// (the same App Store Connect key and JWT, checked here as for every call; no `scope` claim
    /// is needed, as https://developer.apple.com/documentation/appstoreconnectapi/generating-tokens-for-api-requests
    /// makes it optional; upload with the temporary credentials to S3), and
    /// the developer log's JSON as `notarytool log` prints it (jobId, status, statusSummary,
    /// sha256, archiveFilename, issues [{severity, code, path, message, docUrl, architecture}]).
    ///
    /// The S3 part is REAL S3 semantics, not faked: the answer names `SETTINGS["notary_bucket"]`
    /// on a moto_server the test starts (`SETTINGS["s3_endpoint"]`); a status poll looks for the
    /// object there through boto3 and checks its SHA-256 against the submitted one. Until the
    /// object is there the status stays In Progress; after it, `notary_polls` (default 2) more
    /// In Progress answers, then `notary_outcome` (Accepted by default; Invalid, Rejected, or
    /// "never"). `notary_issues` (JSON list) replaces the log's issues of a failed submission.
    /// The log URL is served here (`/notary-logs/{id}`, like Apple's presigned URL it takes no
    /// JWT: sending one there is a violation). Not modelled: webhooks being called, credential
    /// expiry (12 hours), the log of a submission still in progress (404 here).
    static let notarySection = #"""
        import uuid, random, string

        NOTARY_OUTCOMES = ("Accepted", "Invalid", "Rejected", "never")
        DEFAULT_ISSUES = [
            {"severity": "error", "code": None, "path": "App.zip/App.app/Contents/MacOS/App",
             "message": "The signature of the binary is invalid.", "docUrl": "https://developer.apple.com/documentation/security/resolving-common-notarization-issues#3087735",
             "architecture": "arm64"},
            {"severity": "error", "code": None, "path": "App.zip/App.app/Contents/MacOS/App",
             "message": "The executable does not have the hardened runtime enabled.", "docUrl": "https://developer.apple.com/documentation/security/resolving-common-notarization-issues#3087724",
             "architecture": "x86_64"},
        ]

        def random_text(alphabet, length):
            return "".join(random.choice(alphabet) for _ in range(length))

        def notary_resource(s):
            return {"id": s["id"], "type": "submissions", "attributes": dict(s["attributes"])}

        @route("POST", r"/notary/v2/submissions", params=[], stream=True)
        def notary_submit(req, entry):
            body = req.handler.read_body()
            entry["body"] = body.decode("utf-8", "replace")
            if req.headers.get("Content-Type", "").split(";")[0].strip() != "application/json":
                violation("Content-Type is %r, not application/json" % req.headers.get("Content-Type"), 415)
            try:
                doc = json.loads(body)
            except ValueError:
                violation("the body is not JSON", 400)
            if not isinstance(doc, dict) or set(doc) - {"submissionName", "sha256", "notifications"}:
                violation("NewSubmissionRequest has only submissionName, sha256 and notifications, not %s" % sorted(doc), 400)
            name, digest = doc.get("submissionName"), doc.get("sha256")
            if not isinstance(name, str) or not name:
                violation("submissionName is required", 400)
            if not isinstance(digest, str) or not re.match("^[0-9a-f]{64}$", digest):
                violation("sha256 must be 64 lower-case hex digits, not %r" % digest, 400)
            for n in doc.get("notifications", []):
                if not isinstance(n, dict) or set(n) != {"channel", "target"} or n["channel"] != "webhook":
                    violation("notifications must be [{channel: webhook, target}], not %r" % doc["notifications"], 400)
            sid = str(uuid.uuid4())
            credentials = {"awsAccessKeyId": "ASIA" + random_text(string.ascii_uppercase + string.digits, 16),
                           "awsSecretAccessKey": random_text(string.ascii_letters + string.digits + "/+", 40),
                           "awsSessionToken": "FwoGZXIvYXdzE" + random_text(string.ascii_letters + string.digits + "/+", 120),
                           "bucket": SETTINGS.get("notary_bucket", "notary-submissions-prod"), "object": "prod/" + sid}
            with lock:
                put({"type": "submissions", "id": sid, "relationships": {},
                     "attributes": {"createdDate": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(now())), "name": name, "status": "In Progress"},
                     "sha256": digest, "upload": credentials, "uploaded": False, "polls": 0})
            return 200, {"data": {"id": sid, "type": "newSubmissions", "attributes": credentials}, "meta": {}}

        @route("GET", r"/notary/v2/submissions", params=[])
        def notary_list(req, entry):
            items = sorted(find("submissions"), key=lambda s: s["attributes"]["createdDate"], reverse=True)[:100]
            return 200, {"data": [notary_resource(s) for s in items], "meta": {}}

        def notary_object_sha256(s):
            import boto3
            from botocore.exceptions import ClientError
            up = s["upload"]
            client = boto3.client("s3", endpoint_url=SETTINGS["s3_endpoint"], region_name="us-west-2", aws_access_key_id="testing",
                                  aws_secret_access_key="testing")
            try:
                return hashlib.sha256(client.get_object(Bucket=up["bucket"], Key=up["object"])["Body"].read()).hexdigest()
            except ClientError:
                return None

        @route("GET", r"/notary/v2/submissions/(?P<id>[^/]+)", params=[])
        def notary_status(req, entry, id):
            s = get("submissions", id)
            attributes = s["attributes"]
            if attributes["status"] == "In Progress":
                if not s["uploaded"] and "s3_endpoint" in SETTINGS:
                    digest = notary_object_sha256(s)
                    if digest is not None:
                        s["uploaded"] = True
                        if digest != s["sha256"]:
                            violations.append("the object uploaded for %s has SHA-256 %s, not the submitted %s" % (id, digest, s["sha256"]))
                            attributes["status"] = "Invalid"
                elif s["uploaded"]:
                    s["polls"] += 1
                    outcome = SETTINGS.get("notary_outcome", "Accepted")
                    if outcome not in NOTARY_OUTCOMES:
                        violations.append("test setting notary_outcome %r" % outcome)
                    if s["polls"] > int(SETTINGS.get("notary_polls", 2)) and outcome != "never":
                        attributes["status"] = outcome
            return 200, {"data": notary_resource(s), "meta": {}}

        @route("GET", r"/notary/v2/submissions/(?P<id>[^/]+)/logs", params=[])
        def notary_log_link(req, entry, id):
            s = get("submissions", id)
            if s["attributes"]["status"] == "In Progress":
                raise ApiError(404, "NOT_FOUND", "The specified resource does not exist", "The log for submission %s is not available yet." % id)
            url = "%s/notary-logs/%s?X-Amz-Expires=300&X-Amz-Signature=%s" % (req.base, id, random_text(string.hexdigits.lower()[:16], 64))
            return 200, {"data": {"id": id, "type": "submissionsLog", "attributes": {"developerLogUrl": url}}, "meta": {}}

        @route("GET", r"/notary-logs/(?P<id>[^/]+)", auth=False)
        def notary_log(req, entry, id):
            if req.headers.get("Authorization"):
                violations.append("GET %s: the developer log's URL is presigned; the client sent an Authorization header" % req.path)
            s = get("submissions", id)
            status = s["attributes"]["status"]
            issues = json.loads(SETTINGS["notary_issues"]) if "notary_issues" in SETTINGS else DEFAULT_ISSUES
            summaries = {"Accepted": "Ready for distribution", "Invalid": "Archive contains critical validation errors",
                         "Rejected": "Submission rejected"}
            return 200, {"logFormatVersion": 1, "jobId": id, "status": status, "statusSummary": summaries.get(status, status),
                         "statusCode": 0 if status == "Accepted" else 4000, "archiveFilename": s["attributes"]["name"],
                         "uploadDate": s["attributes"]["createdDate"], "sha256": s["sha256"], "ticketContents": None,
                         "issues": None if status == "Accepted" else issues}
        """#

    /// Points the notary section's uploads at a moto_server's bucket (made by the test).
    public func useNotaryStorage(endpoint: String, bucket: String) throws {
        try set(["s3_endpoint": Self.quoted(endpoint), "notary_bucket": Self.quoted(bucket)])
    }
}
