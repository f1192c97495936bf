import Foundation

extension AppStoreConnectContractFake {
    /// CONTRACT FAKE section — TestFlight testers and groups' public links, as documented at
    /// https://developer.apple.com/documentation/appstoreconnectapi/beta-testers and .../beta-groups:
    /// GET-v1-betaTesters (filter[apps], filter[betaGroups], filter[email], include=betaGroups; at most
    /// limit[betaGroups] linked groups per tester, default 10, maximum 50 as the document says),
    /// GET-v1-betaTesters-_id_-relationships-betaGroups (every linked group, paged),
    /// POST-v1-betaTesters (BetaTesterCreateRequest: email required, firstName, lastName; betaGroups or
    /// builds relationship), POST/DELETE-v1-betaGroups-_id_-relationships-betaTesters (204),
    /// DELETE-v1-apps-_id_-relationships-betaTesters (204), GET-v1-betaGroups-_id_ and
    /// PATCH-v1-betaGroups-_id_ (BetaGroupUpdateRequest: publicLinkEnabled, publicLinkLimitEnabled,
    /// publicLinkLimit). Shapes cross-checked with the OpenAPI description 4.4.1.
    ///
    /// Testers keep `betaGroups` and `apps` relationships. The fake's own choices where Apple's pages
    /// say nothing exact: a second tester with an existing email is 409
    /// ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE; an email without `@` and a dot in its domain is 409
    /// ENTITY_ERROR.ATTRIBUTE.INVALID; a public link on an internal group is 409; `publicLinkLimit`
    /// outside 1...10,000 (TestFlight's limit of external testers per app) is 409
    /// ENTITY_ERROR.ATTRIBUTE.INVALID. Enabling a link the first time makes
    /// `https://testflight.apple.com/join/<8 characters>`.
    static let betaTestersSection = #"""
        TESTER_FIELDS = ["firstName", "lastName", "email", "inviteType", "state", "appDevices", "apps", "betaGroups", "builds"]

        def tester_links(tester, name):
            return tester["relationships"].setdefault(name, {"data": []})["data"]

        def link_tester(tester, group):
            groups = tester_links(tester, "betaGroups")
            if not any(g["id"] == group["id"] for g in groups):
                groups.append({"type": "betaGroups", "id": group["id"]})
            apps = tester_links(tester, "apps")
            app = related_id(group, "app")
            if app and not any(a["id"] == app for a in apps):
                apps.append({"type": "apps", "id": app})

        def linkage_ids(req, type_):
            try:
                body = json.loads(req.body or b"null")
            except ValueError:
                violation("the body is not JSON", 422, "ENTITY_ERROR")
            data = body.get("data") if isinstance(body, dict) else None
            if not isinstance(data, list) or not data or not all(isinstance(i, dict) and i.get("type") == type_ for i in data):
                violation("data must be a non-empty array of %s identifiers" % type_, 409, "ENTITY_ERROR")
            return [i["id"] for i in data]

        @route("GET", r"/v1/betaTesters", params=["filter[firstName]", "filter[lastName]", "filter[email]", "filter[inviteType]", "filter[apps]",
               "filter[betaGroups]", "filter[builds]", "filter[id]", "sort", "fields[betaTesters]", "fields[apps]", "fields[betaGroups]",
               "fields[builds]", "limit", "include", "limit[apps]", "limit[betaGroups]", "limit[builds]", "cursor"])
        def list_beta_testers(req, entry):
            items = find("betaTesters")
            if req.one("filter[apps]"):
                items = [t for t in items if any(a["id"] in req.one("filter[apps]").split(",") for a in tester_links(t, "apps"))]
            if req.one("filter[betaGroups]"):
                items = [t for t in items if any(g["id"] in req.one("filter[betaGroups]").split(",") for g in tester_links(t, "betaGroups"))]
            if req.one("filter[email]"):
                items = [t for t in items if t["attributes"]["email"].lower() in req.one("filter[email]").lower().split(",")]
            status, doc = collection(req, sorted(items, key=lambda t: t["id"].zfill(12)), "betaTesters")
            # Like Apple, at most limit[betaGroups] (default 10, at most 50) linked groups per tester.
            limit = int(req.one("limit[betaGroups]") or 10)
            if limit < 1 or limit > 50:
                violation("limit[betaGroups] must be between 1 and 50, not %d" % limit)
            for item in doc["data"]:
                links = (item.get("relationships") or {}).get("betaGroups")
                if links and len(links["data"]) > limit:
                    item["relationships"] = dict(item["relationships"])
                    item["relationships"]["betaGroups"] = {"data": links["data"][:limit]}
            return status, doc

        @route("GET", r"/v1/betaTesters/(?P<id>[^/]+)/relationships/betaGroups", params=["limit", "cursor"])
        def tester_group_linkages(req, entry, id):
            linked = tester_links(get("betaTesters", id), "betaGroups")
            limit = int(req.one("limit") or 50)
            if limit < 1 or limit > 200:
                violation("limit must be between 1 and 200, not %d" % limit)
            start = int(req.one("cursor") or 0)
            doc = {"data": [dict(g) for g in linked[start:start + limit]], "links": {"self": req.base + req.raw_path},
                   "meta": {"paging": {"total": len(linked), "limit": limit}}}
            if start + limit < len(linked):
                query = [(k, v) for k, v in req.pairs if k != "cursor"] + [("cursor", str(start + limit))]
                doc["links"]["next"] = req.base + req.path + "?" + urllib.parse.urlencode(query)
            return 200, doc

        @route("POST", r"/v1/betaTesters")
        def create_beta_tester(req, entry):
            attributes = req.json["data"].get("attributes", {})
            unknown = sorted(set(attributes) - {"firstName", "lastName", "email"})
            if unknown:
                violation("undocumented attributes %s" % unknown, 409, "ENTITY_ERROR.ATTRIBUTE.UNKNOWN")
            email = attributes.get("email")
            if not isinstance(email, str):
                violation("email is required", 409, "ENTITY_ERROR.ATTRIBUTE.REQUIRED")
            if not re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", email):
                raise ApiError(409, "ENTITY_ERROR.ATTRIBUTE.INVALID", "An attribute value is invalid.", "'%s' is not a valid email address." % email)
            links = req.json["data"].get("relationships", {})
            groups = [get("betaGroups", g["id"]) for g in (links.get("betaGroups") or {}).get("data") or []]
            if not groups and not (links.get("builds") or {}).get("data"):
                violation("a new tester needs betaGroups or builds", 409, "ENTITY_ERROR.RELATIONSHIP.REQUIRED")
            if find("betaTesters", lambda t: t["attributes"]["email"].lower() == email.lower()):
                raise ApiError(409, "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE", "The provided entity includes an attribute with a value that has already been used",
                               "A tester with the email '%s' already exists." % email)
            tester = make("betaTesters", {"firstName": attributes.get("firstName"), "lastName": attributes.get("lastName"), "email": email,
                                          "inviteType": "EMAIL", "state": "INVITED"}, {"betaGroups": [], "apps": []})
            for group in groups:
                link_tester(tester, group)
            return 201, {"data": resource_json(tester, req.base), "links": {"self": req.base + req.path}}

        @route("POST", r"/v1/betaGroups/(?P<id>[^/]+)/relationships/betaTesters")
        def add_testers_to_group(req, entry, id):
            group = get("betaGroups", id)
            testers = [get("betaTesters", t) for t in linkage_ids(req, "betaTesters")]
            for tester in testers:
                link_tester(tester, group)
            return 204, None

        @route("DELETE", r"/v1/betaGroups/(?P<id>[^/]+)/relationships/betaTesters")
        def remove_testers_from_group(req, entry, id):
            get("betaGroups", id)
            for tester in [get("betaTesters", t) for t in linkage_ids(req, "betaTesters")]:
                tester["relationships"]["betaGroups"]["data"] = [g for g in tester_links(tester, "betaGroups") if g["id"] != id]
            return 204, None

        @route("DELETE", r"/v1/apps/(?P<id>[^/]+)/relationships/betaTesters")
        def remove_testers_from_app(req, entry, id):
            get("apps", id)
            groups = set(g["id"] for g in find("betaGroups", lambda g: related_id(g, "app") == id))
            for tester in [get("betaTesters", t) for t in linkage_ids(req, "betaTesters")]:
                tester["relationships"]["betaGroups"]["data"] = [g for g in tester_links(tester, "betaGroups") if g["id"] not in groups]
                tester["relationships"]["apps"]["data"] = [a for a in tester_links(tester, "apps") if a["id"] != id]
            return 204, None

        @route("GET", r"/v1/betaGroups/(?P<id>[^/]+)", params=["fields[betaGroups]", "fields[apps]", "fields[builds]", "fields[betaTesters]",
               "fields[betaRecruitmentCriteria]", "include", "limit[betaTesters]", "limit[builds]"])
        def read_beta_group(req, entry, id):
            return single(req, get("betaGroups", id))

        @route("PATCH", r"/v1/betaGroups/(?P<id>[^/]+)")
        def update_beta_group(req, entry, id):
            group = get("betaGroups", id)
            data = req.json["data"]
            if data.get("id") != id:
                violation("data.id %r is not the id in the path %r" % (data.get("id"), id), 409, "ENTITY_ERROR.ATTRIBUTE.INVALID")
            attributes = data.get("attributes", {})
            unknown = sorted(set(attributes) - {"name", "publicLinkEnabled", "publicLinkLimitEnabled", "publicLinkLimit", "feedbackEnabled",
                                                 "iosBuildsAvailableForAppleSiliconMac", "iosBuildsAvailableForAppleVision"})
            if unknown:
                violation("undocumented attributes %s" % unknown, 409, "ENTITY_ERROR.ATTRIBUTE.UNKNOWN")
            if group["attributes"].get("isInternalGroup") and (attributes.get("publicLinkEnabled") or attributes.get("publicLinkLimitEnabled")):
                raise ApiError(409, "ENTITY_ERROR.ATTRIBUTE.INVALID", "An attribute value is invalid.", "Internal groups cannot have a public link.")
            limit = attributes.get("publicLinkLimit")
            if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit < 1 or limit > 10000):
                raise ApiError(409, "ENTITY_ERROR.ATTRIBUTE.INVALID", "An attribute value is invalid.", "publicLinkLimit must be between 1 and 10000.")
            group["attributes"].update({k: v for k, v in attributes.items() if v is not None})
            if group["attributes"].get("publicLinkEnabled") and not group["attributes"].get("publicLinkId"):
                link = hashlib.sha256(("link:" + id).encode()).hexdigest()[:8]
                group["attributes"]["publicLinkId"] = link
                group["attributes"]["publicLink"] = "https://testflight.apple.com/join/" + link
            return single(req, group)
        """#
}

extension AppStoreConnectContractFake {
    /// Seeds a tester of the app in `groupIDs`; returns its id.
    @discardableResult
    public func seedBetaTester(email: String, firstName: String? = nil, lastName: String? = nil, appID: String, groupIDs: [String])
        throws -> String {
        let groups = groupIDs.map { "{\"type\": \"betaGroups\", \"id\": \(Self.quoted($0))}" }.joined(separator: ", ")
        return try seed("betaTesters", attributes: "{\"email\": \(Self.quoted(email)), \"firstName\": \(firstName.map(Self.quoted) ?? "null"), "
                        + "\"lastName\": \(lastName.map(Self.quoted) ?? "null"), \"inviteType\": \"EMAIL\", \"state\": \"ACCEPTED\"}",
                        relationships: ["betaGroups": "[\(groups)]", "apps": "[{\"type\": \"apps\", \"id\": \(Self.quoted(appID))}]"])
    }
}
