import Foundation

extension AppStoreConnectContractFake {
    /// CONTRACT FAKE section — TestFlight, as documented at
    /// https://developer.apple.com/documentation/appstoreconnectapi/prerelease-versions-and-beta-testers :
    /// beta groups (GET-v1-betaGroups: filter[app], filter[name], filter[builds]; isInternalGroup),
    /// POST-v1-builds-_id_-relationships-betaGroups (204), PATCH-v1-builds-_id_ (expired,
    /// usesNonExemptEncryption), GET-v1-builds-_id_-preReleaseVersion, beta build localizations
    /// (GET-v1-builds-_id_-betaBuildLocalizations, POST/PATCH-v1-betaBuildLocalizations; locale
    /// from the table at .../betabuildlocalization/attributes-data.dictionary), beta app review
    /// submissions (GET with the required filter[build], POST; betaReviewState) and
    /// POST-v1-buildBetaNotifications. Shapes cross-checked with the OpenAPI description 4.4.1
    /// (BetaGroup, BuildUpdateRequest, BuildBetaGroupsLinkagesRequest, BetaBuildLocalization*Request,
    /// BetaAppReviewSubmissionCreateRequest, BuildBetaNotificationCreateRequest).
    ///
    /// Beta groups are seeded by tests (`seedBetaGroup`). Links of builds to groups are kept as
    /// `_betaGroupLinks` resources (id `group:build`, readable through `resources`). The fake's own
    /// choices, not spelled out by Apple: 409 ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE for a second
    /// localization of a locale or a second beta review submission of a build; 409
    /// ENTITY_ERROR.ATTRIBUTE.INVALID for a What to Test longer than 4,000 characters; 409 for a
    /// processing build added to a group.
    static let testFlightSection = #"""
        ACCEPTED_LOCALES = ["ar-SA", "bn", "ca", "cs", "da", "de-DE", "el", "en-AU", "en-CA", "en-GB", "en-US", "es-ES", "es-MX", "fi",
                            "fr-CA", "fr-FR", "gu", "he", "hi", "hr", "hu", "id", "it", "ja", "kn", "ko", "ml", "mr", "ms", "nl-NL", "no",
                            "or", "pa", "pl", "pt-BR", "pt-PT", "ro", "ru", "sk", "sl", "sv", "ta", "te", "th", "tr", "uk", "ur", "vi",
                            "zh-Hans", "zh-Hant"]
        TEXT_LIMIT = 4000

        def attributes_of(req, allowed, required=()):
            attributes = req.json["data"].get("attributes", {})
            unknown = sorted(set(attributes) - set(allowed))
            if unknown:
                violation("undocumented attributes %s" % unknown, 409, "ENTITY_ERROR.ATTRIBUTE.UNKNOWN")
            missing = [n for n in required if n not in attributes]
            if missing:
                violation("missing required attributes %s" % missing, 409, "ENTITY_ERROR.ATTRIBUTE.REQUIRED")
            return attributes

        def relation(req, name, type_, required=True, allowed=None):
            links = req.json["data"].get("relationships", {})
            if allowed is not None and set(links) - set(allowed):
                violation("undocumented relationships %s" % sorted(set(links) - set(allowed)), 409, "ENTITY_ERROR.RELATIONSHIP.UNKNOWN")
            data = (links.get(name) or {}).get("data")
            if data is None:
                if required:
                    violation("relationship %s is required" % name, 409, "ENTITY_ERROR.RELATIONSHIP.REQUIRED")
                return None
            if not isinstance(data, dict) or data.get("type") != type_ or not isinstance(data.get("id"), str):
                violation("relationship %s must be {type: %s, id}" % (name, type_), 409, "ENTITY_ERROR.RELATIONSHIP.INVALID")
            return get(type_, data["id"])

        def check_locale_text(attributes):
            if "locale" in attributes and attributes["locale"] not in ACCEPTED_LOCALES:
                violation("locale %r is not one App Store Connect accepts" % attributes["locale"], 409, "ENTITY_ERROR.ATTRIBUTE.INVALID")
            text = attributes.get("whatsNew")
            if text is not None and (not isinstance(text, str) or len(text) > TEXT_LIMIT):
                raise ApiError(409, "ENTITY_ERROR.ATTRIBUTE.INVALID", "An attribute value is invalid.", "whatsNew must be at most %d characters" % TEXT_LIMIT)

        def created(req, r):
            return 201, {"data": resource_json(r, req.base), "links": {"self": req.base + req.path}}

        def group_has_build(group_id, build_id):
            return (group_id + ":" + build_id) in store.get("_betaGroupLinks", {})

        @route("GET", r"/v1/betaGroups", params=["filter[name]", "filter[isInternalGroup]", "filter[app]", "filter[builds]", "filter[id]",
               "sort", "fields[betaGroups]", "limit", "cursor", "include"])
        def list_beta_groups(req, entry):
            items = find("betaGroups")
            if req.one("filter[app]"):
                items = [g for g in items if related_id(g, "app") in req.one("filter[app]").split(",")]
            if req.one("filter[name]"):
                items = [g for g in items if g["attributes"]["name"] in req.one("filter[name]").split(",")]
            if req.one("filter[builds]"):
                items = [g for g in items if any(group_has_build(g["id"], b) for b in req.one("filter[builds]").split(","))]
            if req.one("filter[isInternalGroup]"):
                wanted = req.one("filter[isInternalGroup]") == "true"
                items = [g for g in items if g["attributes"].get("isInternalGroup") == wanted]
            return collection(req, sorted(items, key=lambda g: g["id"]), "betaGroups")

        @route("POST", r"/v1/builds/(?P<id>[^/]+)/relationships/betaGroups")
        def add_build_to_groups(req, entry, id):
            build = get("builds", id)
            if not isinstance(req.json["data"], list) or not req.json["data"]:
                violation("data must be a non-empty array of betaGroups identifiers", 409, "ENTITY_ERROR")
            if build["attributes"]["processingState"] != "VALID":
                raise ApiError(409, "ENTITY_ERROR.RELATIONSHIP.INVALID", "The build is not ready", "build %s is %s" % (id, build["attributes"]["processingState"]))
            for item in req.json["data"]:
                if item["type"] != "betaGroups":
                    violation("type %r is not betaGroups" % item["type"], 409, "ENTITY_ERROR.RELATIONSHIP.INVALID")
                group = get("betaGroups", item["id"])
                if related_id(group, "app") != related_id(build, "app"):
                    violation("group %s belongs to another app" % item["id"], 409, "ENTITY_ERROR.RELATIONSHIP.INVALID")
            for item in req.json["data"]:
                put({"type": "_betaGroupLinks", "id": item["id"] + ":" + id, "attributes": {"group": item["id"], "build": id}, "relationships": {}})
            return 204, None

        @route("PATCH", r"/v1/builds/(?P<id>[^/]+)")
        def update_build(req, entry, id):
            build = get("builds", id)
            attributes = attributes_of(req, ["expired", "usesNonExemptEncryption"])
            relation(req, "appEncryptionDeclaration", "appEncryptionDeclarations", required=False, allowed=["appEncryptionDeclaration"])
            for name, value in attributes.items():
                if not isinstance(value, bool):
                    violation("%s must be a boolean" % name, 409, "ENTITY_ERROR.ATTRIBUTE.TYPE")
                build["attributes"][name] = value
            return single(req, build)

        @route("GET", r"/v1/builds/(?P<id>[^/]+)/preReleaseVersion", params=["fields[preReleaseVersions]"])
        def build_pre_release_version(req, entry, id):
            return single(req, get("preReleaseVersions", related_id(get("builds", id), "preReleaseVersion")))

        @route("GET", r"/v1/builds/(?P<id>[^/]+)/betaBuildLocalizations", params=["fields[betaBuildLocalizations]", "limit", "cursor"])
        def build_localizations(req, entry, id):
            get("builds", id)
            items = find("betaBuildLocalizations", lambda l: related_id(l, "build") == id)
            return collection(req, sorted(items, key=lambda l: l["id"]), "betaBuildLocalizations")

        @route("POST", r"/v1/betaBuildLocalizations")
        def create_beta_build_localization(req, entry):
            attributes = attributes_of(req, ["whatsNew", "locale"], ["locale"])
            build = relation(req, "build", "builds", allowed=["build"])
            check_locale_text(attributes)
            if find("betaBuildLocalizations", lambda l: related_id(l, "build") == build["id"] and l["attributes"]["locale"] == attributes["locale"]):
                raise ApiError(409, "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE", "The provided entity includes an attribute with a value that has already been used",
                               "a localization for %s already exists for this build" % attributes["locale"])
            made = make("betaBuildLocalizations", {"locale": attributes["locale"], "whatsNew": attributes.get("whatsNew")},
                        {"build": {"type": "builds", "id": build["id"]}})
            return created(req, made)

        @route("PATCH", r"/v1/betaBuildLocalizations/(?P<id>[^/]+)")
        def update_beta_build_localization(req, entry, id):
            made = get("betaBuildLocalizations", id)
            attributes = attributes_of(req, ["whatsNew"])
            check_locale_text(attributes)
            made["attributes"].update(attributes)
            return single(req, made)

        @route("GET", r"/v1/betaAppReviewSubmissions", params=["filter[betaReviewState]", "filter[build]", "fields[betaAppReviewSubmissions]",
               "fields[builds]", "limit", "include", "cursor"])
        def list_beta_reviews(req, entry):
            if not req.one("filter[build]"):
                violation("filter[build] is required")
            items = find("betaAppReviewSubmissions", lambda s: related_id(s, "build") in req.one("filter[build]").split(","))
            if req.one("filter[betaReviewState]"):
                items = [s for s in items if s["attributes"]["betaReviewState"] in req.one("filter[betaReviewState]").split(",")]
            return collection(req, items, "betaAppReviewSubmissions")

        @route("POST", r"/v1/betaAppReviewSubmissions")
        def create_beta_review(req, entry):
            attributes_of(req, [])
            build = relation(req, "build", "builds", allowed=["build"])
            if find("betaAppReviewSubmissions", lambda s: related_id(s, "build") == build["id"]):
                raise ApiError(409, "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE", "The build was already submitted", "build %s already has a beta app review submission" % build["id"])
            made = make("betaAppReviewSubmissions", {"betaReviewState": "WAITING_FOR_REVIEW",
                                                     "submittedDate": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(now()))},
                        {"build": {"type": "builds", "id": build["id"]}})
            return created(req, made)

        @route("POST", r"/v1/buildBetaNotifications")
        def notify_testers(req, entry):
            attributes_of(req, [])
            build = relation(req, "build", "builds", allowed=["build"])
            made = make("buildBetaNotifications", {}, {"build": {"type": "builds", "id": build["id"]}})
            return created(req, made)
        """#
}

extension AppStoreConnectContractFake {
    /// Seeds a beta group of the app; returns its id.
    @discardableResult
    public func seedBetaGroup(appID: String, name: String, isInternal: Bool) throws -> String {
        try seed("betaGroups", attributes: "{\"name\": \(Self.quoted(name)), \"isInternalGroup\": \(isInternal), \"publicLinkEnabled\": false}",
                 relationships: ["app": "{\"type\": \"apps\", \"id\": \(Self.quoted(appID))}"])
    }

    /// Seeds a build of the app (with its pre-release version) as App Store Connect holds it after
    /// processing; returns the build's id.
    @discardableResult
    public func seedBuild(appID: String, version: String = "1.2.0", buildNumber: String = "42", state: String = "VALID",
                          uploaded: String = "2025-01-01T00:00:00+00:00") throws -> String {
        let app = "{\"type\": \"apps\", \"id\": \(Self.quoted(appID))}"
        let pre = try seed("preReleaseVersions", attributes: "{\"version\": \(Self.quoted(version)), \"platform\": \"IOS\"}",
                           relationships: ["app": app])
        return try seed("builds", attributes: "{\"version\": \(Self.quoted(buildNumber)), \"processingState\": \(Self.quoted(state)), "
                        + "\"expired\": false, \"uploadedDate\": \(Self.quoted(uploaded))}",
                        relationships: ["app": app, "preReleaseVersion": "{\"type\": \"preReleaseVersions\", \"id\": \(Self.quoted(pre))}"])
    }

    /// The resources of `type` in the store, decoded as `[{type, id, attributes, relationships}]`.
    public func stored(_ type: String) throws -> [[String: Any]] {
        (try JSONSerialization.jsonObject(with: resources(type)) as? [[String: Any]]) ?? []
    }
}
