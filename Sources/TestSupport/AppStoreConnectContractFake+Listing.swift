import Foundation

extension AppStoreConnectContractFake {
    /// What `seedListing` made.
    public struct SeededListing: Sendable {
        public var appID: String
        public var appInfoID: String
        public var versionID: String
    }

    /// Seeds an app with an app info and an App Store version of `platform`, both in `state`
    /// (PREPARE_FOR_SUBMISSION by default: editable), with no localizations.
    @discardableResult
    public func seedListing(bundleID: String = "com.example.app", name: String = "Example", version: String = "1.2.0", platform: String = "IOS",
                            state: String = "PREPARE_FOR_SUBMISSION", appInfoState: String? = nil) throws -> SeededListing {
        let appID = try seedApp(bundleID: bundleID, name: name)
        let appLink = "{\"type\": \"apps\", \"id\": \(Self.quoted(appID))}"
        let info = try seed("appInfos", attributes: "{\"state\": \(Self.quoted(appInfoState ?? state))}", relationships: ["app": appLink])
        let versionID = try seed("appStoreVersions", attributes: "{\"versionString\": \(Self.quoted(version)), \"platform\": \(Self.quoted(platform)), "
                                 + "\"appVersionState\": \(Self.quoted(state)), \"releaseType\": \"AFTER_APPROVAL\"}",
                                 relationships: ["app": appLink, "build": "null"])
        return SeededListing(appID: appID, appInfoID: info, versionID: versionID)
    }

    /// CONTRACT FAKE section — the App Store listing's texts, as documented at
    /// https://developer.apple.com/documentation/appstoreconnectapi/app-infos
    /// (GET-v1-apps-_id_-appInfos) and .../app-info-localizations
    /// (GET-v1-appInfos-_id_-appInfoLocalizations, POST-v1-appInfoLocalizations with the required
    /// `name` and `locale`, PATCH-v1-appInfoLocalizations-_id_); shapes cross-checked with the
    /// OpenAPI description 4.4.1 (AppInfo, AppInfoLocalizationCreateRequest/UpdateRequest).
    ///
    /// Apple's limits (App Store Connect Help, "App information" and "Platform version
    /// information") are enforced on every write of app info and App Store version localizations
    /// (`check_listing_text`, called by the App Store versions section too) with 409
    /// ENTITY_ERROR.ATTRIBUTE.INVALID, so a client that failed to check is caught: name 2 to 30
    /// characters, subtitle 30, keywords 100, promotional text 170, description and What's New
    /// 4,000; URLs absolute http(s). The fake's own choices, not spelled out by Apple: an app
    /// info's texts change only in PREPARE_FOR_SUBMISSION, READY_FOR_REVIEW, DEVELOPER_REJECTED or
    /// REJECTED (else 409 STATE_ERROR); one localization per locale (409). Needs the TestFlight
    /// section (helpers).
    static let listingSection = #"""
        LISTING_LIMITS = {"name": 30, "subtitle": 30, "keywords": 100, "promotionalText": 170, "description": 4000, "whatsNew": 4000}
        LISTING_URLS = ["privacyPolicyUrl", "supportUrl", "marketingUrl"]
        APP_INFO_EDITABLE = ["PREPARE_FOR_SUBMISSION", "READY_FOR_REVIEW", "DEVELOPER_REJECTED", "REJECTED"]

        def check_listing_text(attributes):
            for name, limit in LISTING_LIMITS.items():
                text = attributes.get(name)
                if text is None:
                    continue
                if not isinstance(text, str) or len(text) > limit or (name == "name" and len(text) < 2):
                    raise ApiError(409, "ENTITY_ERROR.ATTRIBUTE.INVALID", "An attribute value is invalid.",
                                   "%s must be %s%d characters" % (name, "2 to " if name == "name" else "at most ", limit))
            for name in LISTING_URLS:
                url = attributes.get(name)
                if url is None:
                    continue
                parsed = urllib.parse.urlparse(url) if isinstance(url, str) else None
                if parsed is None or parsed.scheme not in ("http", "https") or not parsed.netloc or " " in url:
                    raise ApiError(409, "ENTITY_ERROR.ATTRIBUTE.INVALID", "An attribute value is invalid.", "%s must be an http(s) URL" % name)

        def app_info_editable(info):
            if info["attributes"].get("state") not in APP_INFO_EDITABLE:
                raise ApiError(409, "STATE_ERROR", "The request cannot be fulfilled because of the state of another resource.",
                               "app info %s is %s" % (info["id"], info["attributes"].get("state")))

        @route("GET", r"/v1/apps/(?P<id>[^/]+)/appInfos", params=["fields[appInfos]", "fields[apps]", "fields[ageRatingDeclarations]",
               "fields[appInfoLocalizations]", "fields[appCategories]", "limit", "include", "limit[appInfoLocalizations]", "cursor"])
        def app_infos(req, entry, id):
            get("apps", id)
            items = find("appInfos", lambda i: related_id(i, "app") == id)
            status, doc = collection(req, sorted(items, key=lambda i: i["id"]), "appInfos")
            return status, strip_unincluded(req, doc)

        @route("GET", r"/v1/appInfos/(?P<id>[^/]+)/appInfoLocalizations", params=["filter[locale]", "fields[appInfoLocalizations]",
               "fields[appInfos]", "limit", "include", "cursor"])
        def app_info_localizations(req, entry, id):
            get("appInfos", id)
            items = find("appInfoLocalizations", lambda l: related_id(l, "appInfo") == id)
            if req.one("filter[locale]"):
                items = [l for l in items if l["attributes"]["locale"] in req.one("filter[locale]").split(",")]
            status, doc = collection(req, sorted(items, key=lambda l: l["id"]), "appInfoLocalizations")
            return status, strip_unincluded(req, doc)

        APP_INFO_TEXTS = ["name", "subtitle", "privacyPolicyUrl", "privacyChoicesUrl", "privacyPolicyText"]

        @route("POST", r"/v1/appInfoLocalizations")
        def create_app_info_localization(req, entry):
            attributes = attributes_of(req, APP_INFO_TEXTS + ["locale"], ["locale", "name"])
            info = relation(req, "appInfo", "appInfos", allowed=["appInfo"])
            check_locale_text(attributes)
            check_listing_text(attributes)
            app_info_editable(info)
            if find("appInfoLocalizations", lambda l: related_id(l, "appInfo") == info["id"] and l["attributes"]["locale"] == attributes["locale"]):
                raise ApiError(409, "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE", "The localization already exists", "locale %s exists" % attributes["locale"])
            made = make("appInfoLocalizations", attributes, {"appInfo": {"type": "appInfos", "id": info["id"]}})
            return created(req, made)

        @route("PATCH", r"/v1/appInfoLocalizations/(?P<id>[^/]+)")
        def update_app_info_localization(req, entry, id):
            made = get("appInfoLocalizations", id)
            attributes = attributes_of(req, APP_INFO_TEXTS)
            check_listing_text(attributes)
            app_info_editable(get("appInfos", related_id(made, "appInfo")))
            if "name" in attributes and not attributes["name"]:
                raise ApiError(409, "ENTITY_ERROR.ATTRIBUTE.REQUIRED", "An attribute is required", "name cannot be cleared")
            for key, value in attributes.items():
                if value is None:
                    made["attributes"].pop(key, None)
                else:
                    made["attributes"][key] = value
            return single(req, made)
        """#
}
