import Foundation

extension AppStoreConnectContractFake {
    /// App Store screenshots, as documented at
    /// https://developer.apple.com/documentation/appstoreconnectapi/app-screenshot-sets and
    /// .../app-screenshots, with the asset flow of
    /// https://developer.apple.com/documentation/appstoreconnectapi/uploading-assets-to-app-store-connect:
    /// GET-v1-appStoreVersionLocalizations-_id_-appScreenshotSets, POST-v1-appScreenshotSets,
    /// GET-v1-appScreenshotSets-_id_-appScreenshots, PATCH-v1-appScreenshotSets-_id_-relationships-appScreenshots
    /// (the new order: exactly the set's screenshots), POST-v1-appScreenshots (→ `uploadOperations`),
    /// PATCH-v1-appScreenshots-_id_ (`uploaded`, `sourceFileChecksum`), GET-v1-appScreenshots-_id_,
    /// DELETE-v1-appScreenshots-_id_.
    ///
    /// Upload operations point at `/upload-parts/screenshots/{id}/{n}` here (Apple's point at its
    /// storage hosts and take no JWT; sending one is a violation); each part's length and the
    /// operation's `requestHeaders` are checked. At commit the parts are assembled and their MD5
    /// compared with `sourceFileChecksum`: a mismatch makes the screenshot FAILED, as Apple does
    /// (the error code `ASSET_CHECKSUM_MISMATCH` is the fake's choice; Apple documents none), and so
    /// does a file that is not a PNG or JPEG (`IMAGE_TOOL_FAILURE`, also the fake's choice), and an
    /// image whose size the set's display type does not accept (`IMAGE_INCORRECT_DIMENSIONS`, with a
    /// violation: the client put it in the wrong set; sizes from Apple's "Screenshot specifications").
    /// A committed screenshot is UPLOAD_COMPLETE, then COMPLETE after `screenshot_polls` GETs
    /// (default 1), with an `imageAsset` whose `templateUrl` points at a second loopback server
    /// (Apple's image CDN) that serves the uploaded bytes for `{w}x{h}bb.{f}`; its downloads are
    /// logged as `GET /assets/...`. Settings: `screenshot_part_size` (bytes per operation, default
    /// 1 MiB), `screenshot_corrupt_parts` (true: stored parts get one byte flipped, a transfer
    /// corrupted on the way), `asset_padding` (bytes added to every served image). A set takes at
    /// most 10 screenshots (409 past that) and one set per display type and localization (409).
    /// Tests seed `appStoreVersionLocalizations` with `seed(...)`.
    static let screenshotsSection = #"""
        import struct as _struct
        SHOT_TYPES = SCHEMAS["ScreenshotDisplayType"]["enum"]
        SHOT_PARTS = {}    # screenshot id -> {part number: bytes}
        SHOT_BYTES = {}    # screenshot id -> the committed file

        def image_size(data):
            if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24 and data[12:16] == b"IHDR":
                return _struct.unpack(">II", data[16:24])
            if data[:3] != b"\xff\xd8\xff":
                return None
            i = 2
            while i + 4 <= len(data):
                if data[i] != 0xFF:
                    return None
                m = data[i + 1]
                if m == 0xFF:
                    i += 1
                    continue
                if m in (0xD8, 0x01) or 0xD0 <= m <= 0xD7:
                    i += 2
                    continue
                if m in (0xD9, 0xDA):
                    return None
                length = _struct.unpack(">H", data[i + 2:i + 4])[0]
                if 0xC0 <= m <= 0xCF and m not in (0xC4, 0xC8, 0xCC):
                    if i + 9 > len(data):
                        return None
                    h, w = _struct.unpack(">HH", data[i + 5:i + 9])
                    return (w, h)
                i += 2 + length
            return None

        # Sizes per display type (portrait; landscape is the transpose) from Apple's "Screenshot specifications"
        # page, kept here apart from the client's table so that each checks the other.
        SHOT_SIZES = {
            "APP_IPHONE_67": [(1260, 2736), (1290, 2796), (1320, 2868)], "APP_IPHONE_65": [(1242, 2688), (1284, 2778)],
            "APP_IPHONE_61": [(1179, 2556), (1206, 2622)], "APP_IPHONE_58": [(1170, 2532), (1125, 2436), (1080, 2340)],
            "APP_IPHONE_55": [(1242, 2208)], "APP_IPHONE_47": [(750, 1334)], "APP_IPHONE_40": [(640, 1096), (640, 1136), (600, 1136)],
            "APP_IPHONE_35": [(640, 920), (640, 960), (600, 960)], "APP_IPAD_PRO_3GEN_129": [(2048, 2732), (2064, 2752)],
            "APP_IPAD_PRO_129": [(2048, 2732)], "APP_IPAD_PRO_3GEN_11": [(1488, 2266), (1668, 2420), (1668, 2388), (1640, 2360)],
            "APP_IPAD_105": [(1668, 2224)], "APP_IPAD_97": [(768, 1024), (768, 1004), (1536, 2048), (1536, 2008), (748, 1024), (1496, 2048)],
            "APP_DESKTOP": [(800, 1280), (900, 1440), (1600, 2560), (1800, 2880)], "APP_WATCH_ULTRA": [(410, 502), (422, 514)],
            "APP_WATCH_SERIES_10": [(416, 496)], "APP_WATCH_SERIES_7": [(396, 484)], "APP_WATCH_SERIES_4": [(368, 448)],
            "APP_WATCH_SERIES_3": [(312, 390)], "APP_APPLE_TV": [(1080, 1920), (2160, 3840)], "APP_APPLE_VISION_PRO": [(2160, 3840)],
        }

        def size_fits(display_type, size):
            sizes = SHOT_SIZES.get(display_type[len("IMESSAGE_"):] if display_type.startswith("IMESSAGE_") else display_type, [])
            return tuple(size) in sizes or tuple(reversed(size)) in sizes

        def set_shot_ids(s):
            return [d["id"] for d in (s["relationships"].get("appScreenshots", {}).get("data") or [])]

        def set_shot_list(s, ids):
            s["relationships"]["appScreenshots"] = {"data": [{"type": "appScreenshots", "id": i} for i in ids]}

        def shot_set(shot):
            return get("appScreenshotSets", related_id(shot, "appScreenshotSet"))

        class AssetHandler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                entry = {"method": "GET", "path": "/assets" + self.path, "query": "", "status": 404}
                body = b""
                with lock:
                    log.append(entry)
                    match = re.match(r"^/([^/]+)/(\d+)x(\d+)bb\.(png|jpg)$", self.path)
                    shot = store.get("appScreenshots", {}).get(match.group(1)) if match else None
                    if match is None or shot is None or match.group(1) not in SHOT_BYTES:
                        violations.append("GET /assets%s: not an image URL the fake gave (templateUrl's {w}, {h} and {f} filled in)" % self.path)
                    elif self.headers.get("Authorization"):
                        violations.append("GET /assets%s: image URLs take no Authorization header" % self.path)
                    else:
                        asset = shot["attributes"]["imageAsset"]
                        if (int(match.group(2)), int(match.group(3))) != (asset["width"], asset["height"]):
                            violations.append("GET /assets%s: size is not the imageAsset's %dx%d" % (self.path, asset["width"], asset["height"]))
                        body = SHOT_BYTES[match.group(1)] + b"\0" * int(SETTINGS.get("asset_padding", 0))
                        entry["status"] = 200
                self.send_response(entry["status"])
                self.send_header("Content-Type", "image/png" if self.path.endswith(".png") else "image/jpeg")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        asset_server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), AssetHandler)
        asset_server.daemon_threads = True
        threading.Thread(target=asset_server.serve_forever, daemon=True).start()
        ASSET_BASE = "http://127.0.0.1:%d" % asset_server.server_address[1]

        @route("GET", r"/v1/appStoreVersionLocalizations/(?P<id>[^/]+)/appScreenshotSets", params=["filter[screenshotDisplayType]",
               "filter[appCustomProductPageLocalization]", "filter[appStoreVersionExperimentTreatmentLocalization]", "fields[appScreenshotSets]",
               "fields[appStoreVersionLocalizations]", "fields[appCustomProductPageLocalizations]", "fields[appStoreVersionExperimentTreatmentLocalizations]",
               "fields[appScreenshots]", "limit", "include", "limit[appScreenshots]", "cursor"])
        def localization_screenshot_sets(req, entry, id):
            get("appStoreVersionLocalizations", id)
            items = find("appScreenshotSets", lambda s: related_id(s, "appStoreVersionLocalization") == id)
            if req.one("filter[screenshotDisplayType]"):
                items = [s for s in items if s["attributes"]["screenshotDisplayType"] in req.one("filter[screenshotDisplayType]").split(",")]
            return collection(req, items, "appScreenshotSets")

        @route("POST", r"/v1/appScreenshotSets")
        def create_screenshot_set(req, entry):
            attributes = require_attributes(req, ["screenshotDisplayType"])
            if attributes["screenshotDisplayType"] not in SHOT_TYPES:
                violation("screenshotDisplayType %r" % attributes["screenshotDisplayType"], 422, "ENTITY_ERROR.ATTRIBUTE.INVALID")
            link = req.json["data"].get("relationships", {}).get("appStoreVersionLocalization", {}).get("data") or {}
            if link.get("type") != "appStoreVersionLocalizations":
                violation("relationship appStoreVersionLocalization is required", 422, "ENTITY_ERROR.RELATIONSHIP.REQUIRED")
            get("appStoreVersionLocalizations", link["id"])
            if find("appScreenshotSets", lambda s: related_id(s, "appStoreVersionLocalization") == link["id"]
                    and s["attributes"]["screenshotDisplayType"] == attributes["screenshotDisplayType"]):
                raise ApiError(409, "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE", "A screenshot set of this display type exists",
                               "The localization already has a %s set." % attributes["screenshotDisplayType"])
            made = make("appScreenshotSets", {"screenshotDisplayType": attributes["screenshotDisplayType"]},
                        {"appStoreVersionLocalization": {"type": "appStoreVersionLocalizations", "id": link["id"]}, "appScreenshots": []})
            return 201, {"data": resource_json(made, req.base), "links": {"self": req.base + req.path}}

        @route("GET", r"/v1/appScreenshotSets/(?P<id>[^/]+)/appScreenshots", params=["fields[appScreenshots]", "fields[appScreenshotSets]",
               "limit", "include", "cursor"])
        def set_screenshots(req, entry, id):
            s = get("appScreenshotSets", id)
            return collection(req, [get("appScreenshots", i) for i in set_shot_ids(s)], "appScreenshots")

        @route("PATCH", r"/v1/appScreenshotSets/(?P<id>[^/]+)/relationships/appScreenshots")
        def order_screenshots(req, entry, id):
            s = get("appScreenshotSets", id)
            wanted = [d["id"] for d in req.json["data"]] if isinstance(req.json["data"], list) else None
            if wanted is None or any(d["type"] != "appScreenshots" for d in req.json["data"]):
                violation("the body must list appScreenshots identifiers", 422, "ENTITY_ERROR")
            if sorted(wanted) != sorted(set_shot_ids(s)):
                raise ApiError(409, "ENTITY_ERROR.RELATIONSHIP.INVALID", "The order must name the set's screenshots",
                               "Got %s; the set has %s." % (wanted, set_shot_ids(s)))
            set_shot_list(s, wanted)
            return 204, None

        @route("POST", r"/v1/appScreenshots")
        def reserve_screenshot(req, entry):
            attributes = require_attributes(req, ["fileName", "fileSize"])
            if not isinstance(attributes["fileSize"], int) or attributes["fileSize"] < 1:
                violation("fileSize must be a positive integer", 422, "ENTITY_ERROR.ATTRIBUTE.INVALID")
            link = req.json["data"].get("relationships", {}).get("appScreenshotSet", {}).get("data") or {}
            if link.get("type") != "appScreenshotSets":
                violation("relationship appScreenshotSet is required", 422, "ENTITY_ERROR.RELATIONSHIP.REQUIRED")
            s = get("appScreenshotSets", link["id"])
            if len(set_shot_ids(s)) >= 10:
                raise ApiError(409, "ENTITY_ERROR.RELATIONSHIP.INVALID", "A screenshot set takes at most 10 screenshots",
                               "The set %s has 10 screenshots." % s["id"])
            shot_id = new_id()
            size, part = attributes["fileSize"], int(SETTINGS.get("screenshot_part_size", 1 << 20))
            operations = [{"method": "PUT", "url": "%s/upload-parts/screenshots/%s/%d" % (req.base, shot_id, n + 1), "offset": offset,
                           "length": min(part, size - offset),
                           "requestHeaders": [{"name": "Content-Type", "value": "image/png"}, {"name": "X-Upload-Token", "value": "shot-" + shot_id}]}
                          for n, offset in enumerate(range(0, size, part))]
            made = make("appScreenshots", {"fileName": attributes["fileName"], "fileSize": size, "sourceFileChecksum": None, "assetType": "SCREENSHOT",
                                           "assetToken": "token-" + shot_id, "uploadOperations": operations,
                                           "assetDeliveryState": {"state": "AWAITING_UPLOAD", "errors": [], "warnings": []}},
                        {"appScreenshotSet": {"type": "appScreenshotSets", "id": s["id"]}}, shot_id)
            set_shot_list(s, set_shot_ids(s) + [shot_id])
            SHOT_PARTS[shot_id] = {}
            return 201, {"data": resource_json(made, req.base), "links": {"self": req.base + req.path}}

        @route("PUT", r"/upload-parts/screenshots/(?P<id>[^/]+)/(?P<n>\d+)", stream=True, auth=False)
        def screenshot_part(req, entry, id, n):
            length = int(req.headers.get("Content-Length") or -1)
            data = req.handler.rfile.read(max(length, 0))
            entry["received"], entry["sha256"] = len(data), hashlib.sha256(data).hexdigest()
            with lock:
                shot = store.get("appScreenshots", {}).get(id)
                operations = (shot or {}).get("attributes", {}).get("uploadOperations", [])
                if not 1 <= int(n) <= len(operations):
                    violations.append("PUT %s: no such upload operation" % req.path)
                    return 404, None
                operation = operations[int(n) - 1]
                if req.headers.get("Authorization"):
                    violations.append("PUT %s: upload operations take no Authorization header" % req.path)
                if req.headers.get("X-Upload-Token") != "shot-" + id or req.headers.get("Content-Type") != "image/png":
                    violations.append("PUT %s: the operation's requestHeaders were not sent" % req.path)
                    return 403, None
                if len(data) != operation["length"]:
                    violations.append("PUT %s: %d bytes, not the operation's %d" % (req.path, len(data), operation["length"]))
                    return 400, None
                if SETTINGS.get("screenshot_corrupt_parts") and data:
                    data = bytes([data[0] ^ 0xFF]) + data[1:]
                SHOT_PARTS.setdefault(id, {})[int(n)] = data
            return 200, None

        @route("PATCH", r"/v1/appScreenshots/(?P<id>[^/]+)")
        def commit_screenshot(req, entry, id):
            shot = get("appScreenshots", id)
            attributes = req.json["data"].get("attributes", {})
            if attributes.get("uploaded") is not True or not isinstance(attributes.get("sourceFileChecksum"), str):
                violation("commit needs uploaded: true and sourceFileChecksum", 409, "ENTITY_ERROR.ATTRIBUTE.INVALID")
            operations = shot["attributes"]["uploadOperations"]
            got = SHOT_PARTS.get(id, {})
            missing = [n + 1 for n in range(len(operations)) if n + 1 not in got]
            if missing:
                raise ApiError(409, "ENTITY_ERROR.INVALID_STATE", "Parts are missing", "parts %s were not uploaded" % missing)
            whole = b"".join(got[n + 1] for n in range(len(operations)))
            state = shot["attributes"]["assetDeliveryState"]
            shot["attributes"]["sourceFileChecksum"] = attributes["sourceFileChecksum"]
            size = image_size(whole)
            if hashlib.md5(whole).hexdigest() != attributes["sourceFileChecksum"].lower():
                state["state"], state["errors"] = "FAILED", [{"code": "ASSET_CHECKSUM_MISMATCH",
                                                              "description": "The uploaded file's checksum does not match sourceFileChecksum."}]
            elif size is None:
                state["state"], state["errors"] = "FAILED", [{"code": "IMAGE_TOOL_FAILURE", "description": "The file is not a PNG or JPEG image."}]
            elif not size_fits(shot_set(shot)["attributes"]["screenshotDisplayType"], size):
                display_type = shot_set(shot)["attributes"]["screenshotDisplayType"]
                violations.append("PATCH %s: a %dx%d image in a %s set" % (req.path, size[0], size[1], display_type))
                state["state"], state["errors"] = "FAILED", [{"code": "IMAGE_INCORRECT_DIMENSIONS",
                                                              "description": "The dimensions of the screenshot are wrong for %s." % display_type}]
            else:
                state["state"] = "UPLOAD_COMPLETE"
                shot["polls"], shot["size"] = 0, size
                SHOT_BYTES[id] = whole
            shot["attributes"]["uploadOperations"] = None
            return single(req, shot)

        @route("GET", r"/v1/appScreenshots/(?P<id>[^/]+)", params=["fields[appScreenshots]", "fields[appScreenshotSets]", "include"])
        def read_screenshot(req, entry, id):
            shot = get("appScreenshots", id)
            if shot["attributes"]["assetDeliveryState"]["state"] == "UPLOAD_COMPLETE":
                shot["polls"] = shot.get("polls", 0) + 1
                if shot["polls"] >= int(SETTINGS.get("screenshot_polls", 1)):
                    shot["attributes"]["assetDeliveryState"]["state"] = "COMPLETE"
                    width, height = shot["size"]
                    shot["attributes"]["imageAsset"] = {"templateUrl": "%s/%s/{w}x{h}bb.{f}" % (ASSET_BASE, id), "width": width, "height": height}
            return single(req, shot)

        @route("DELETE", r"/v1/appScreenshots/(?P<id>[^/]+)")
        def delete_screenshot(req, entry, id):
            shot = get("appScreenshots", id)
            s = shot_set(shot)
            set_shot_list(s, [i for i in set_shot_ids(s) if i != id])
            del store["appScreenshots"][id]
            SHOT_BYTES.pop(id, None)
            return 204, None
        """#
}
