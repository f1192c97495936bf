import Foundation

extension AppStoreConnectContractFake {
    /// Build uploads, as documented at
    /// https://developer.apple.com/documentation/appstoreconnectapi/build-uploads
    /// (POST-v1-buildUploads, GET-v1-buildUploads-_id_, GET-v1-apps-_id_-buildUploads,
    /// POST/PATCH-v1-buildUploadFiles, GET-v1-buildUploads-_id_-buildUploadFiles) and builds
    /// (GET-v1-builds, GET-v1-builds-_id_; processingState PROCESSING/FAILED/INVALID/VALID).
    /// Upload operations point at this server's `/upload-parts/{file}/{n}` (Apple's point at its
    /// storage hosts; they carry no JWT). Settings: `part_size` (bytes per operation, default
    /// 1 MiB), `upload_polls` (GETs of a committed upload before COMPLETE, default 1),
    /// `processing_polls` (GETs of a build before VALID, default 2; -1 never), `keep_bytes_limit`
    /// (files up to this size are kept to check the SHA-256 at commit, default 32 MiB),
    /// `upload_build_linkage` (false: a COMPLETE upload never names its build, even with
    /// `include=build`; Apple's document does not promise the linkage), `upload_creates_build`
    /// (false: a COMPLETE upload makes no build, so a lookup finds nothing).
    /// The 409 code for a duplicate build (ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE) is the
    /// fake's choice: Apple documents a 409 for this call but not the code.
    static let buildUploadsSection = #"""
        PLATFORMS = ["IOS", "MAC_OS", "TV_OS", "VISION_OS"]
        UTIS = ["com.apple.binary-property-list", "com.apple.ipa", "com.apple.pkg", "com.apple.xml-property-list", "com.pkware.zip-archive"]
        parts = {}   # file id -> {n: {"sha256", "length", "bytes"}}

        def require_attributes(req, names):
            attributes = req.json["data"].get("attributes", {})
            missing = [n for n in names if n not in attributes]
            if missing:
                violation("missing required attributes %s" % missing, 422, "ENTITY_ERROR.ATTRIBUTE.REQUIRED")
            return attributes

        def upload_json_state(u):
            return u

        @route("GET", r"/v1/apps/(?P<id>[^/]+)/buildUploads", params=["filter[cfBundleShortVersionString]", "filter[cfBundleVersion]",
               "filter[platform]", "filter[state]", "sort", "fields[buildUploads]", "fields[builds]", "fields[buildUploadFiles]", "limit", "include", "cursor"])
        def app_build_uploads(req, entry, id):
            get("apps", id)
            items = find("buildUploads", lambda u: related_id(u, "app") == id)
            for name in ("cfBundleShortVersionString", "cfBundleVersion", "platform"):
                if req.one("filter[%s]" % name):
                    items = [u for u in items if u["attributes"].get(name) in req.one("filter[%s]" % name).split(",")]
            if req.one("filter[state]"):
                items = [u for u in items if u["attributes"]["state"]["state"] in req.one("filter[state]").split(",")]
            sort = req.one("sort") or "uploadedDate"
            if sort.lstrip("-") not in ("cfBundleVersion", "uploadedDate"):
                violation("sort %s is not documented" % sort)
            key = sort.lstrip("-")
            items.sort(key=lambda u: (u["attributes"].get(key) or "", int(u["id"])), reverse=sort.startswith("-"))
            return collection(req, items, "buildUploads")

        @route("POST", r"/v1/buildUploads")
        def create_build_upload(req, entry):
            attributes = require_attributes(req, ["cfBundleShortVersionString", "cfBundleVersion", "platform"])
            if attributes["platform"] not in PLATFORMS:
                violation("platform %r" % attributes["platform"], 422, "ENTITY_ERROR.ATTRIBUTE.INVALID")
            app = req.json["data"].get("relationships", {}).get("app", {}).get("data") or {}
            if app.get("type") != "apps":
                violation("relationship app is required", 422, "ENTITY_ERROR.RELATIONSHIP.REQUIRED")
            get("apps", app["id"])
            version, build = attributes["cfBundleShortVersionString"], attributes["cfBundleVersion"]
            taken = [b for b in find("builds", lambda b: related_id(b, "app") == app["id"] and b["attributes"].get("version") == build)
                     if store.get("preReleaseVersions", {}).get(related_id(b, "preReleaseVersion") or "", {}).get("attributes", {}).get("version") == version]
            taken += find("buildUploads", lambda u: related_id(u, "app") == app["id"] and u["attributes"]["cfBundleVersion"] == build
                          and u["attributes"]["cfBundleShortVersionString"] == version and u["attributes"]["state"]["state"] != "FAILED")
            if taken:
                raise ApiError(409, "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE", "The provided entity includes an attribute with a value that has already been used",
                               "The bundle version must be higher than the previously uploaded version: '%s'." % build)
            upload = make("buildUploads", {"cfBundleShortVersionString": version, "cfBundleVersion": build, "platform": attributes["platform"],
                                           "createdDate": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(now())), "uploadedDate": None,
                                           "state": {"state": "AWAITING_UPLOAD", "errors": [], "warnings": [], "infos": []}},
                          {"app": {"type": "apps", "id": app["id"]}})
            upload["polls"] = 0
            return 201, {"data": resource_json(upload, req.base), "links": {"self": req.base + req.path}}

        @route("GET", r"/v1/buildUploads/(?P<id>[^/]+)", params=["fields[buildUploads]", "fields[builds]", "fields[buildUploadFiles]", "include"])
        def read_build_upload(req, entry, id):
            upload = get("buildUploads", id)
            state = upload["attributes"]["state"]
            if state["state"] == "PROCESSING":
                upload["polls"] = upload.get("polls", 0) + 1
                if upload["polls"] >= int(SETTINGS.get("upload_polls", 1)) and not SETTINGS.get("upload_creates_build", True):
                    state["state"] = "COMPLETE"
                elif upload["polls"] >= int(SETTINGS.get("upload_polls", 1)):
                    state["state"] = "COMPLETE"
                    app_id = related_id(upload, "app")
                    version = upload["attributes"]["cfBundleShortVersionString"]
                    pre = find("preReleaseVersions", lambda p: related_id(p, "app") == app_id and p["attributes"]["version"] == version)
                    pre = pre[0] if pre else make("preReleaseVersions", {"version": version, "platform": upload["attributes"]["platform"]},
                                                  {"app": {"type": "apps", "id": app_id}})
                    build = make("builds", {"version": upload["attributes"]["cfBundleVersion"], "processingState": "PROCESSING",
                                            "uploadedDate": upload["attributes"]["uploadedDate"], "expired": False},
                                 {"app": {"type": "apps", "id": app_id}, "preReleaseVersion": {"type": "preReleaseVersions", "id": pre["id"]}})
                    build["polls"] = 0
                    upload["relationships"]["build"] = {"data": {"type": "builds", "id": build["id"]}}
            answer = single(req, upload)
            if not SETTINGS.get("upload_build_linkage", True):
                answer[1]["data"].get("relationships", {}).pop("build", None)
                req.query.pop("include", None)
            return answer

        @route("GET", r"/v1/buildUploads/(?P<id>[^/]+)/buildUploadFiles", params=["fields[buildUploadFiles]", "limit", "cursor"])
        def build_upload_files(req, entry, id):
            get("buildUploads", id)
            return collection(req, find("buildUploadFiles", lambda f: related_id(f, "buildUpload") == id), "buildUploadFiles")

        @route("POST", r"/v1/buildUploadFiles")
        def create_build_upload_file(req, entry):
            attributes = require_attributes(req, ["assetType", "fileName", "fileSize", "uti"])
            if attributes["assetType"] not in ("ASSET", "ASSET_DESCRIPTION", "ASSET_SPI") or attributes["uti"] not in UTIS:
                violation("assetType/uti %r/%r" % (attributes["assetType"], attributes["uti"]), 422, "ENTITY_ERROR.ATTRIBUTE.INVALID")
            if not isinstance(attributes["fileSize"], int) or attributes["fileSize"] < 1:
                violation("fileSize must be a positive integer", 422, "ENTITY_ERROR.ATTRIBUTE.INVALID")
            link = req.json["data"].get("relationships", {}).get("buildUpload", {}).get("data") or {}
            upload = get("buildUploads", link.get("id", ""))
            if upload["attributes"]["state"]["state"] != "AWAITING_UPLOAD":
                raise ApiError(409, "ENTITY_ERROR.INVALID_STATE", "The build upload is not awaiting an upload", "state is " + upload["attributes"]["state"]["state"])
            file_id = new_id()
            size, part = attributes["fileSize"], int(SETTINGS.get("part_size", 1 << 20))
            operations = [{"method": "PUT", "url": "%s/upload-parts/%s/%d" % (req.base, file_id, n + 1), "offset": offset,
                           "length": min(part, size - offset), "partNumber": n + 1,
                           "requestHeaders": [{"name": "Content-Type", "value": "application/octet-stream"},
                                              {"name": "X-Upload-Token", "value": "token-" + file_id}]}
                          for n, offset in enumerate(range(0, size, part))]
            made = make("buildUploadFiles", {"assetType": attributes["assetType"], "fileName": attributes["fileName"], "fileSize": size,
                                             "uti": attributes["uti"], "uploadOperations": operations,
                                             "assetDeliveryState": {"state": "AWAITING_UPLOAD", "errors": [], "warnings": []}},
                        {"buildUpload": {"type": "buildUploads", "id": upload["id"]}}, file_id)
            upload["relationships"]["buildUploadFiles"] = {"data": [{"type": "buildUploadFiles", "id": file_id}]}
            parts[file_id] = {}
            return 201, {"data": resource_json(made, req.base), "links": {"self": req.base + req.path}}

        @route("PUT", r"/upload-parts/(?P<file>[^/]+)/(?P<n>\d+)", stream=True, auth=False)
        def upload_part(req, entry, file, n):
            with lock:
                resource = store.get("buildUploadFiles", {}).get(file)
            operation = [o for o in (resource or {}).get("attributes", {}).get("uploadOperations", []) if o["partNumber"] == int(n)]
            length = int(req.headers.get("Content-Length") or -1)
            keep = resource is not None and resource["attributes"]["fileSize"] <= int(SETTINGS.get("keep_bytes_limit", 32 << 20))
            digest, received, kept = hashlib.sha256(), 0, []
            while received < max(length, 0):
                chunk = req.handler.rfile.read(min(1 << 20, length - received))
                if not chunk:
                    break
                digest.update(chunk)
                if keep:
                    kept.append(chunk)
                received += len(chunk)
            entry["received"], entry["sha256"] = received, digest.hexdigest()
            if not operation:
                with lock:
                    violations.append("PUT %s: no such upload operation" % req.path)
                return 404, None
            if req.headers.get("X-Upload-Token") != "token-" + file or req.headers.get("Content-Type") != "application/octet-stream":
                with lock:
                    violations.append("PUT %s: the operation's requestHeaders were not sent" % req.path)
                return 403, None
            if received != operation[0]["length"]:
                with lock:
                    violations.append("PUT %s: %d bytes, not the operation's %d" % (req.path, received, operation[0]["length"]))
                return 400, None
            with lock:
                parts.setdefault(file, {})[int(n)] = {"sha256": digest.hexdigest(), "length": received, "bytes": b"".join(kept) if keep else None}
            return 200, None

        @route("PATCH", r"/v1/buildUploadFiles/(?P<id>[^/]+)")
        def commit_build_upload_file(req, entry, id):
            made = get("buildUploadFiles", id)
            attributes = req.json["data"].get("attributes", {})
            if set(attributes) - {"uploaded", "sourceFileChecksums"}:
                violation("undocumented attributes %s" % sorted(set(attributes) - {"uploaded", "sourceFileChecksums"}), 409, "ENTITY_ERROR.ATTRIBUTE.UNKNOWN")
            checksum = (attributes.get("sourceFileChecksums") or {}).get("file") or {}
            if attributes.get("uploaded") is not True or checksum.get("algorithm") not in ("MD5", "SHA_256") or not checksum.get("hash"):
                violation("commit needs uploaded: true and sourceFileChecksums.file {hash, algorithm}", 409, "ENTITY_ERROR.ATTRIBUTE.INVALID")
            operations = made["attributes"]["uploadOperations"]
            got = parts.get(id, {})
            missing = [o["partNumber"] for o in operations if o["partNumber"] not in got]
            if missing:
                raise ApiError(409, "ENTITY_ERROR.INVALID_STATE", "Parts are missing", "parts %s were not uploaded" % missing)
            if all(got[o["partNumber"]]["bytes"] is not None for o in operations):
                whole = b"".join(got[o["partNumber"]]["bytes"] for o in operations)
                expected = hashlib.sha256(whole).hexdigest() if checksum["algorithm"] == "SHA_256" else hashlib.md5(whole).hexdigest()
                if expected != checksum["hash"].lower():
                    with lock:
                        violations.append("PATCH %s: checksum %s does not match the bytes received (%s)" % (req.path, checksum["hash"], expected))
                    raise ApiError(409, "ENTITY_ERROR.ATTRIBUTE.INVALID", "Checksum mismatch", "sourceFileChecksums does not match the file")
            made["attributes"]["sourceFileChecksums"] = attributes["sourceFileChecksums"]
            made["attributes"]["assetDeliveryState"]["state"] = "UPLOAD_COMPLETE"
            upload = get("buildUploads", related_id(made, "buildUpload"))
            upload["attributes"]["state"]["state"] = "PROCESSING"
            upload["attributes"]["uploadedDate"] = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(now()))
            return single(req, made)

        @route("GET", r"/v1/builds/(?P<id>[^/]+)", params=["fields[builds]", "include", "fields[preReleaseVersions]"])
        def read_build(req, entry, id):
            build = get("builds", id)
            if build["attributes"]["processingState"] == "PROCESSING":
                build["polls"] = build.get("polls", 0) + 1
                wanted = int(SETTINGS.get("processing_polls", 2))
                if wanted >= 0 and build["polls"] >= wanted:
                    build["attributes"]["processingState"] = "VALID"
            return single(req, build)

        @route("GET", r"/v1/builds", params=["filter[app]", "filter[version]", "filter[preReleaseVersion.version]", "filter[preReleaseVersion.platform]", "filter[processingState]",
               "sort", "fields[builds]", "limit", "include", "cursor"])
        def list_builds(req, entry):
            items = find("builds")
            if req.one("filter[app]"):
                items = [b for b in items if related_id(b, "app") in req.one("filter[app]").split(",")]
            if req.one("filter[version]"):
                items = [b for b in items if b["attributes"].get("version") in req.one("filter[version]").split(",")]
            if req.one("filter[preReleaseVersion.version]"):
                wanted = req.one("filter[preReleaseVersion.version]").split(",")
                items = [b for b in items if store.get("preReleaseVersions", {}).get(related_id(b, "preReleaseVersion") or "", {}).get("attributes", {}).get("version") in wanted]
            if req.one("filter[preReleaseVersion.platform]"):
                wanted = req.one("filter[preReleaseVersion.platform]").split(",")
                items = [b for b in items if store.get("preReleaseVersions", {}).get(related_id(b, "preReleaseVersion") or "", {}).get("attributes", {}).get("platform") in wanted]
            sort = req.one("sort") or "uploadedDate"
            items.sort(key=lambda b: (b["attributes"].get(sort.lstrip("-")) or "", int(b["id"])), reverse=sort.startswith("-"))
            return collection(req, items, "builds")
        """#
}
