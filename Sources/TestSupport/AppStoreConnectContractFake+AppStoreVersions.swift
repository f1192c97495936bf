import Foundation

extension AppStoreConnectContractFake {
    /// CONTRACT FAKE section — App Store versions and review submissions, as documented at
    /// https://developer.apple.com/documentation/appstoreconnectapi/app-store-versions
    /// (GET-v1-apps-_id_-appStoreVersions with filter[versionString]/filter[platform],
    /// POST/PATCH-v1-appStoreVersions, GET/PATCH-v1-appStoreVersions-_id_-relationships-build),
    /// .../app-store-version-localizations (GET-v1-appStoreVersions-_id_-appStoreVersionLocalizations,
    /// POST/PATCH-v1-appStoreVersionLocalizations), .../app-store-version-phased-releases
    /// (GET-v1-appStoreVersions-_id_-appStoreVersionPhasedRelease, POST, DELETE),
    /// .../review-submissions (GET-v1-reviewSubmissions with the required filter[app], POST, PATCH
    /// with submitted: true) and .../review-submission-items (POST, GET-v1-reviewSubmissions-_id_-items).
    /// Shapes cross-checked with the OpenAPI description 4.4.1 (AppStoreVersionCreateRequest,
    /// AppStoreVersionUpdateRequest, AppStoreVersionBuildLinkageRequest,
    /// AppStoreVersionLocalization*Request, AppStoreVersionPhasedReleaseCreateRequest,
    /// ReviewSubmissionCreateRequest/UpdateRequest, ReviewSubmissionItemCreateRequest).
    ///
    /// Relationship data is answered only for what `include` asks (as Apple does). The fake's own
    /// choices, not spelled out by Apple: a version can be edited only in PREPARE_FOR_SUBMISSION,
    /// READY_FOR_REVIEW or a rejected state (else 409 STATE_ERROR), except that a version
    /// localization's PATCH of `promotionalText` alone is taken in every state (App Store Connect
    /// Help, "Platform version information": promotional text "can be updated at any time" without
    /// a new submission; the OpenAPI update request has no state rule); one version per version string
    /// and platform, and one version in preparation per platform (409); one open draft submission
    /// per app and platform (409); an item needs a version with a build; submitting moves the
    /// submission and its versions to WAITING_FOR_REVIEW. Needs the TestFlight section (helpers).
    static let appStoreVersionsSection = #"""
        EDITABLE = ["PREPARE_FOR_SUBMISSION", "READY_FOR_REVIEW", "DEVELOPER_REJECTED", "REJECTED", "METADATA_REJECTED", "INVALID_BINARY"]
        RELEASE_TYPES = ["MANUAL", "AFTER_APPROVAL", "SCHEDULED"]

        def stamp():
            return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(now()))

        def editable(version):
            if version["attributes"]["appVersionState"] not in EDITABLE:
                raise ApiError(409, "STATE_ERROR", "The request cannot be fulfilled because of the state of another resource.",
                               "App Store version %s is %s" % (version["id"], version["attributes"]["appVersionState"]))

        def check_release(attributes):
            if "releaseType" in attributes and attributes["releaseType"] not in RELEASE_TYPES + [None]:
                violation("releaseType %r" % attributes["releaseType"], 409, "ENTITY_ERROR.ATTRIBUTE.INVALID")
            if attributes.get("releaseType") == "SCHEDULED" and not attributes.get("earliestReleaseDate"):
                raise ApiError(409, "ENTITY_ERROR.ATTRIBUTE.REQUIRED", "An attribute is required", "SCHEDULED needs earliestReleaseDate")

        def set_version_state(version, state):
            version["attributes"]["appVersionState"] = state
            version["attributes"]["appStoreState"] = state

        def strip_unincluded(req, doc):
            wanted = (req.one("include") or "").split(",")
            for item in doc["data"]:
                # a new dict: the answer shares the stored resource's relationships
                item["relationships"] = {k: v for k, v in item.get("relationships", {}).items() if k in wanted}
            return doc

        @route("GET", r"/v1/apps/(?P<id>[^/]+)/appStoreVersions", params=["filter[platform]", "filter[versionString]", "filter[appStoreState]",
               "filter[appVersionState]", "filter[id]", "fields[appStoreVersions]", "limit", "include", "cursor"])
        def app_versions(req, entry, id):
            get("apps", id)
            items = find("appStoreVersions", lambda v: related_id(v, "app") == id)
            for name in ("platform", "versionString", "appStoreState", "appVersionState"):
                if req.one("filter[%s]" % name):
                    items = [v for v in items if v["attributes"].get(name) in req.one("filter[%s]" % name).split(",")]
            status, doc = collection(req, sorted(items, key=lambda v: v["id"]), "appStoreVersions")
            return status, strip_unincluded(req, doc)

        @route("POST", r"/v1/appStoreVersions")
        def create_version(req, entry):
            attributes = attributes_of(req, ["platform", "versionString", "copyright", "reviewType", "releaseType", "earliestReleaseDate", "usesIdfa"],
                                       ["versionString", "platform"])
            app = relation(req, "app", "apps", allowed=["app", "appStoreVersionLocalizations", "build"])
            check_release(attributes)
            if attributes["platform"] not in PLATFORMS:
                violation("platform %r" % attributes["platform"], 409, "ENTITY_ERROR.ATTRIBUTE.INVALID")
            same = find("appStoreVersions", lambda v: related_id(v, "app") == app["id"] and v["attributes"]["platform"] == attributes["platform"])
            if [v for v in same if v["attributes"]["versionString"] == attributes["versionString"]]:
                raise ApiError(409, "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE", "The version already exists",
                               "version %s already exists for %s" % (attributes["versionString"], attributes["platform"]))
            if [v for v in same if v["attributes"]["appVersionState"] in EDITABLE]:
                raise ApiError(409, "ENTITY_ERROR.RELATIONSHIP.INVALID", "Another version is in preparation", "only one version may be in preparation per platform")
            made = make("appStoreVersions", dict({"releaseType": "AFTER_APPROVAL", "earliestReleaseDate": None, "createdDate": stamp()}, **attributes),
                        {"app": {"type": "apps", "id": app["id"]}})
            set_version_state(made, "PREPARE_FOR_SUBMISSION")
            made["relationships"]["build"] = {"data": None}
            return created(req, made)

        @route("PATCH", r"/v1/appStoreVersions/(?P<id>[^/]+)")
        def update_version(req, entry, id):
            version = get("appStoreVersions", id)
            attributes = attributes_of(req, ["versionString", "copyright", "reviewType", "releaseType", "earliestReleaseDate", "usesIdfa", "downloadable"])
            relation(req, "build", "builds", required=False, allowed=["build", "appClipDefaultExperience"])
            check_release(dict(version["attributes"], **attributes))
            editable(version)
            version["attributes"].update(attributes)
            return single(req, version)

        @route("GET", r"/v1/appStoreVersions/(?P<id>[^/]+)/relationships/build", params=[])
        def version_build_linkage(req, entry, id):
            version = get("appStoreVersions", id)
            linked = version["relationships"].get("build", {}).get("data")
            if linked is None:
                # Apple's document makes `data` required and not nullable here: no build can only be a 404.
                raise ApiError(404, "NOT_FOUND", "The specified resource does not exist", "App Store version '%s' has no build" % id)
            return 200, {"data": linked, "links": {"self": req.base + req.path}}

        @route("PATCH", r"/v1/appStoreVersions/(?P<id>[^/]+)/relationships/build")
        def attach_build(req, entry, id):
            version = get("appStoreVersions", id)
            data = req.json["data"]
            if not isinstance(data, dict) or data["type"] != "builds":
                violation("data must be one builds identifier", 409, "ENTITY_ERROR.RELATIONSHIP.INVALID")
            build = get("builds", data["id"])
            if related_id(build, "app") != related_id(version, "app") or build["attributes"]["processingState"] != "VALID":
                raise ApiError(409, "ENTITY_ERROR.RELATIONSHIP.INVALID", "The build cannot be attached", "build %s is not a valid build of this app" % data["id"])
            editable(version)
            version["relationships"]["build"] = {"data": {"type": "builds", "id": build["id"]}}
            return 204, None

        @route("GET", r"/v1/appStoreVersions/(?P<id>[^/]+)/appStoreVersionLocalizations", params=["filter[locale]", "fields[appStoreVersionLocalizations]", "limit", "cursor"])
        def version_localizations(req, entry, id):
            get("appStoreVersions", id)
            items = find("appStoreVersionLocalizations", lambda l: related_id(l, "appStoreVersion") == id)
            if req.one("filter[locale]"):
                items = [l for l in items if l["attributes"]["locale"] in req.one("filter[locale]").split(",")]
            status, doc = collection(req, sorted(items, key=lambda l: l["id"]), "appStoreVersionLocalizations")
            return status, strip_unincluded(req, doc)

        LOCALIZATION_FIELDS = ["description", "keywords", "marketingUrl", "promotionalText", "supportUrl", "whatsNew"]

        @route("POST", r"/v1/appStoreVersionLocalizations")
        def create_version_localization(req, entry):
            attributes = attributes_of(req, LOCALIZATION_FIELDS + ["locale"], ["locale"])
            version = relation(req, "appStoreVersion", "appStoreVersions", allowed=["appStoreVersion"])
            check_locale_text(attributes)
            check_listing_text(attributes)
            editable(version)
            if find("appStoreVersionLocalizations", lambda l: related_id(l, "appStoreVersion") == version["id"] and l["attributes"]["locale"] == attributes["locale"]):
                raise ApiError(409, "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE", "The localization already exists", "locale %s exists" % attributes["locale"])
            made = make("appStoreVersionLocalizations", attributes, {"appStoreVersion": {"type": "appStoreVersions", "id": version["id"]}})
            return created(req, made)

        @route("PATCH", r"/v1/appStoreVersionLocalizations/(?P<id>[^/]+)")
        def update_version_localization(req, entry, id):
            made = get("appStoreVersionLocalizations", id)
            attributes = attributes_of(req, LOCALIZATION_FIELDS)
            check_locale_text(attributes)
            check_listing_text(attributes)
            # Apple: promotional text "can be updated at any time" without a new submission; the
            # other texts only while the version is editable.
            if set(attributes) - {"promotionalText"}:
                editable(get("appStoreVersions", related_id(made, "appStoreVersion")))
            # null clears a text (the update request's attributes are nullable)
            made["attributes"].update({k: v for k, v in attributes.items() if v is not None})
            for key in [k for k, v in attributes.items() if v is None]:
                made["attributes"].pop(key, None)
            return single(req, made)

        @route("GET", r"/v1/appStoreVersions/(?P<id>[^/]+)/appStoreVersionPhasedRelease", params=["fields[appStoreVersionPhasedReleases]"])
        def version_phased_release(req, entry, id):
            get("appStoreVersions", id)
            found = find("appStoreVersionPhasedReleases", lambda p: related_id(p, "appStoreVersion") == id)
            if not found:
                # Apple's document makes `data` required and not nullable here: none can only be a 404.
                raise ApiError(404, "NOT_FOUND", "The specified resource does not exist", "App Store version '%s' has no phased release" % id)
            status, doc = single(req, found[0])
            doc["data"].pop("relationships", None)
            return status, doc

        @route("POST", r"/v1/appStoreVersionPhasedReleases")
        def create_phased_release(req, entry):
            attributes = attributes_of(req, ["phasedReleaseState"])
            version = relation(req, "appStoreVersion", "appStoreVersions", allowed=["appStoreVersion"])
            if attributes.get("phasedReleaseState", "INACTIVE") not in ("INACTIVE", "ACTIVE", "PAUSED", "COMPLETE", None):
                violation("phasedReleaseState %r" % attributes["phasedReleaseState"], 409, "ENTITY_ERROR.ATTRIBUTE.INVALID")
            if find("appStoreVersionPhasedReleases", lambda p: related_id(p, "appStoreVersion") == version["id"]):
                raise ApiError(409, "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE", "The phased release already exists", "version %s has one" % version["id"])
            made = make("appStoreVersionPhasedReleases", {"phasedReleaseState": attributes.get("phasedReleaseState") or "INACTIVE",
                                                          "startDate": None, "totalPauseDuration": 0, "currentDayNumber": 0},
                        {"appStoreVersion": {"type": "appStoreVersions", "id": version["id"]}})
            return created(req, made)

        @route("DELETE", r"/v1/appStoreVersionPhasedReleases/(?P<id>[^/]+)")
        def delete_phased_release(req, entry, id):
            get("appStoreVersionPhasedReleases", id)
            del store["appStoreVersionPhasedReleases"][id]
            return 204, None

        @route("GET", r"/v1/reviewSubmissions", params=["filter[platform]", "filter[state]", "filter[app]", "fields[reviewSubmissions]",
               "fields[apps]", "fields[reviewSubmissionItems]", "fields[appStoreVersions]", "limit", "include", "limit[items]", "cursor"])
        def list_review_submissions(req, entry):
            if not req.one("filter[app]"):
                violation("filter[app] is required")
            items = find("reviewSubmissions", lambda s: related_id(s, "app") in req.one("filter[app]").split(","))
            for name in ("platform", "state"):
                if req.one("filter[%s]" % name):
                    items = [s for s in items if s["attributes"].get(name) in req.one("filter[%s]" % name).split(",")]
            status, doc = collection(req, sorted(items, key=lambda s: s["id"]), "reviewSubmissions")
            return status, strip_unincluded(req, doc)

        @route("POST", r"/v1/reviewSubmissions")
        def create_review_submission(req, entry):
            attributes = attributes_of(req, ["platform"])
            app = relation(req, "app", "apps", allowed=["app"])
            platform = attributes.get("platform") or "IOS"
            if platform not in PLATFORMS:
                violation("platform %r" % platform, 409, "ENTITY_ERROR.ATTRIBUTE.INVALID")
            if find("reviewSubmissions", lambda s: related_id(s, "app") == app["id"] and s["attributes"]["platform"] == platform
                    and s["attributes"]["state"] == "READY_FOR_REVIEW"):
                raise ApiError(409, "ENTITY_ERROR", "A submission is already open", "app %s has an open review submission for %s" % (app["id"], platform))
            made = make("reviewSubmissions", {"platform": platform, "submittedDate": None, "state": "READY_FOR_REVIEW"},
                        {"app": {"type": "apps", "id": app["id"]}})
            return created(req, made)

        @route("GET", r"/v1/reviewSubmissions/(?P<id>[^/]+)/items", params=["fields[reviewSubmissionItems]", "fields[appStoreVersions]", "limit", "include", "cursor"])
        def review_submission_items(req, entry, id):
            get("reviewSubmissions", id)
            items = find("reviewSubmissionItems", lambda i: related_id(i, "reviewSubmission") == id)
            status, doc = collection(req, sorted(items, key=lambda i: i["id"]), "reviewSubmissionItems")
            return status, strip_unincluded(req, doc)

        @route("POST", r"/v1/reviewSubmissionItems")
        def create_review_item(req, entry):
            attributes_of(req, [])
            submission = relation(req, "reviewSubmission", "reviewSubmissions", allowed=["reviewSubmission", "appStoreVersion",
                                  "appCustomProductPageVersion", "appStoreVersionExperiment", "appStoreVersionExperimentV2", "appEvent"])
            version = relation(req, "appStoreVersion", "appStoreVersions")
            if submission["attributes"]["state"] not in ("READY_FOR_REVIEW", "UNRESOLVED_ISSUES"):
                raise ApiError(409, "STATE_ERROR", "The submission is not open", "review submission %s is %s" % (submission["id"], submission["attributes"]["state"]))
            editable(version)
            if not version["relationships"].get("build", {}).get("data"):
                raise ApiError(409, "ENTITY_ERROR.RELATIONSHIP.REQUIRED", "A build is required", "App Store version %s has no build" % version["id"])
            if find("reviewSubmissionItems", lambda i: related_id(i, "appStoreVersion") == version["id"] and i["attributes"]["state"] != "REMOVED"):
                raise ApiError(409, "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE", "The item already exists", "version %s is already in a submission" % version["id"])
            made = make("reviewSubmissionItems", {"state": "READY_FOR_REVIEW"},
                        {"reviewSubmission": {"type": "reviewSubmissions", "id": submission["id"]},
                         "appStoreVersion": {"type": "appStoreVersions", "id": version["id"]}})
            return created(req, made)

        @route("PATCH", r"/v1/reviewSubmissions/(?P<id>[^/]+)")
        def update_review_submission(req, entry, id):
            submission = get("reviewSubmissions", id)
            attributes = attributes_of(req, ["platform", "submitted", "canceled"])
            if attributes.get("submitted") is True:
                if submission["attributes"]["state"] not in ("READY_FOR_REVIEW", "UNRESOLVED_ISSUES"):
                    raise ApiError(409, "STATE_ERROR", "The submission is not open", "review submission %s is %s" % (id, submission["attributes"]["state"]))
                items = find("reviewSubmissionItems", lambda i: related_id(i, "reviewSubmission") == id)
                if not items:
                    raise ApiError(409, "STATE_ERROR", "Nothing to submit", "review submission %s has no items" % id)
                submission["attributes"].update({"state": "WAITING_FOR_REVIEW", "submittedDate": stamp()})
                for item in items:
                    set_version_state(get("appStoreVersions", related_id(item, "appStoreVersion")), "WAITING_FOR_REVIEW")
            return single(req, submission)
        """#
}
