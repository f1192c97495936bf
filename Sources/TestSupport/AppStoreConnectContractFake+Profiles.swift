import Foundation

extension AppStoreConnectContractFake {
    /// CONTRACT FAKE section — provisioning profiles (see `provisioningSection` for the pages cited and the
    /// fake's own choices). Needs the certificates section's helpers before it.
    static let provisioningProfilesSection = #"""
        # profileType -> (Platform in the plist, platform attribute, kind, certificate types allowed, bundle id platforms allowed)
        IOS_DEV, IOS_DIST = ["DEVELOPMENT", "IOS_DEVELOPMENT"], ["DISTRIBUTION", "IOS_DISTRIBUTION"]
        MAC_DEV, MAC_DIST = ["DEVELOPMENT", "MAC_APP_DEVELOPMENT"], ["DISTRIBUTION", "MAC_APP_DISTRIBUTION"]
        DIRECT = ["DEVELOPER_ID_APPLICATION", "DEVELOPER_ID_APPLICATION_G2"]
        IOS_IDS, MAC_IDS = ["IOS", "UNIVERSAL"], ["MAC_OS", "UNIVERSAL"]
        PROFILE_TYPES = {
            "IOS_APP_DEVELOPMENT": ("iOS", "IOS", "development", IOS_DEV, IOS_IDS),
            "IOS_APP_STORE": ("iOS", "IOS", "store", IOS_DIST, IOS_IDS),
            "IOS_APP_ADHOC": ("iOS", "IOS", "adhoc", IOS_DIST, IOS_IDS),
            "IOS_APP_INHOUSE": ("iOS", "IOS", "inhouse", IOS_DIST, IOS_IDS),
            "TVOS_APP_DEVELOPMENT": ("tvOS", "IOS", "development", IOS_DEV, IOS_IDS),
            "TVOS_APP_STORE": ("tvOS", "IOS", "store", IOS_DIST, IOS_IDS),
            "TVOS_APP_ADHOC": ("tvOS", "IOS", "adhoc", IOS_DIST, IOS_IDS),
            "TVOS_APP_INHOUSE": ("tvOS", "IOS", "inhouse", IOS_DIST, IOS_IDS),
            "MAC_APP_DEVELOPMENT": ("OSX", "MAC_OS", "development", MAC_DEV, MAC_IDS),
            "MAC_APP_STORE": ("OSX", "MAC_OS", "store", MAC_DIST, MAC_IDS),
            "MAC_APP_DIRECT": ("OSX", "MAC_OS", "direct", DIRECT, MAC_IDS),
            "MAC_CATALYST_APP_DEVELOPMENT": ("OSX", "MAC_OS", "development", MAC_DEV, IOS_IDS),
            "MAC_CATALYST_APP_STORE": ("OSX", "MAC_OS", "store", MAC_DIST, IOS_IDS),
            "MAC_CATALYST_APP_DIRECT": ("OSX", "MAC_OS", "direct", DIRECT, IOS_IDS),
        }
        PROFILE_FIELDS = ["name", "platform", "profileType", "profileState", "profileContent", "uuid", "createdDate", "expirationDate",
                          "bundleId", "devices", "certificates"]
        PROFILE_READ_PARAMS = ["fields[profiles]", "fields[bundleIds]", "fields[devices]", "fields[certificates]", "include",
                               "limit[certificates]", "limit[devices]"]

        def refresh_state(profile):
            if profile.get("_expires", now() + 1) <= now():
                profile["attributes"]["profileState"] = "INVALID"
            return profile

        def profile_json(req, profile, included):
            refresh_state(profile)
            out = resource_json(profile, req.base, req.fields("profiles"))
            wanted = [n for n in (req.one("include") or "").split(",") if n]
            out["relationships"] = {}
            for name in ["bundleId", "certificates", "devices"]:
                link = {"links": {"self": "%s/v1/profiles/%s/relationships/%s" % (req.base, profile["id"], name),
                                  "related": "%s/v1/profiles/%s/%s" % (req.base, profile["id"], name)}}
                if name in wanted:
                    data = profile["relationships"][name]["data"]
                    if isinstance(data, list):
                        limit = int(req.one("limit[%s]" % name) or 10)
                        link["meta"] = {"paging": {"total": len(data), "limit": limit}}
                        data = data[:limit]
                    link["data"] = data
                    for item in (data if isinstance(data, list) else [data]):
                        related = store.get(item["type"], {}).get(item["id"]) or store.get("_revokedCertificates", {}).get(item["id"])
                        if related and not any(i["type"] == item["type"] and i["id"] == item["id"] for i in included):
                            included.append(resource_json(related, req.base, req.fields(item["type"])))
                out["relationships"][name] = link
            return out

        def check_profile_params(req):
            enum_filter(req, "include", ["bundleId", "devices", "certificates"])
            enum_filter(req, "fields[profiles]", PROFILE_FIELDS)
            for name in ("limit[certificates]", "limit[devices]"):
                if req.one(name) and not 1 <= int(req.one(name)) <= 50:
                    violation("%s must be between 1 and 50" % name)

        @route("GET", r"/v1/profiles", params=["filter[name]", "filter[profileType]", "filter[profileState]", "filter[id]", "sort",
               "limit", "cursor"] + PROFILE_READ_PARAMS)
        def list_profiles(req, entry):
            check_profile_params(req)
            enum_filter(req, "filter[profileType]", list(PROFILE_TYPES))
            enum_filter(req, "filter[profileState]", ["ACTIVE", "INVALID"])
            items = filtered(req, [refresh_state(p) for p in find("profiles")], ["name", "profileType", "profileState", "id"])
            items = sorted_by(req, items, ["name", "-name", "profileType", "-profileType", "profileState", "-profileState", "id", "-id"])
            status, doc = collection(req, items, "profiles")
            included = []
            by_id = {p["id"]: p for p in items}
            doc["data"] = [profile_json(req, by_id[d["id"]], included) for d in doc["data"]]
            if included:
                doc["included"] = included
            return status, doc

        @route("GET", r"/v1/profiles/(?P<id>[^/]+)", params=PROFILE_READ_PARAMS)
        def read_profile(req, entry, id):
            check_profile_params(req)
            included = []
            doc = {"data": profile_json(req, get("profiles", id), included), "links": {"self": req.base + req.path}}
            if included:
                doc["included"] = included
            return 200, doc

        @route("GET", r"/v1/profiles/(?P<id>[^/]+)/relationships/(?P<name>devices|certificates)", params=["limit", "cursor"])
        def profile_linkage(req, entry, id, name):
            items = [{"type": d["type"], "id": d["id"], "attributes": {}} for d in get("profiles", id)["relationships"][name]["data"]]
            status, doc = collection(req, items, name)
            doc["data"] = [{"type": d["type"], "id": d["id"]} for d in doc["data"]]
            return status, doc

        def linked(req, name, type_, required):
            link = req.json["data"].get("relationships", {}).get(name)
            data = None if link is None else link.get("data")
            if data is None:
                if required:
                    violation("relationship %s is required" % name, 409, "ENTITY_ERROR.RELATIONSHIP.REQUIRED")
                return []
            items = data if isinstance(data, list) else [data]
            if (name == "bundleId") == isinstance(data, list) or not all(i.get("type") == type_ for i in items):
                violation("relationship %s must be %s of type %s" % (name, "one identifier" if name == "bundleId" else "an array", type_),
                          409, "ENTITY_ERROR.RELATIONSHIP.INVALID")
            return [get(type_, i["id"]) for i in items]

        def profile_plist(name, kind, plist_platform, bundle, certificates, devices, created, expires, profile_uuid):
            team_id, team_name = team()
            entitlements = {"application-identifier": "%s.%s" % (team_id, bundle["attributes"]["identifier"]),
                            "com.apple.developer.team-identifier": team_id, "get-task-allow": kind == "development",
                            "keychain-access-groups": ["%s.*" % team_id]}
            if plist_platform == "OSX":
                entitlements["com.apple.application-identifier"] = entitlements.pop("application-identifier")
            utc = lambda t: datetime.datetime.fromtimestamp(int(t), datetime.timezone.utc).replace(tzinfo=None)
            plist = {"AppIDName": bundle["attributes"]["name"], "ApplicationIdentifierPrefix": [bundle["attributes"].get("seedId") or team_id],
                     "CreationDate": utc(created), "Platform": [plist_platform], "IsXcodeManaged": False,
                     "DeveloperCertificates": [base64.b64decode(c["attributes"]["certificateContent"]) for c in certificates],
                     "Entitlements": entitlements, "ExpirationDate": utc(expires), "Name": name, "TeamIdentifier": [team_id],
                     "TeamName": team_name, "TimeToLive": max(0, int((expires - created) // 86400)), "UUID": profile_uuid, "Version": 1}
            if kind in ("development", "adhoc"):
                plist["ProvisionedDevices"] = [d["attributes"]["udid"] for d in devices]
            if kind == "inhouse":
                plist["ProvisionsAllDevices"] = True
            return plistlib.dumps(plist, fmt=plistlib.FMT_XML)

        @route("POST", r"/v1/profiles")
        def create_profile(req, entry):
            attributes = prov_attributes(req, ["name", "profileType"], ["name", "profileType"])
            extra = sorted(set(req.json["data"].get("relationships", {})) - {"bundleId", "certificates", "devices"})
            if extra:
                violation("undocumented relationships %s" % extra, 409, "ENTITY_ERROR.RELATIONSHIP.UNKNOWN")
            kind_name, name = attributes["profileType"], attributes["name"]
            if kind_name not in PROFILE_TYPES:
                violation("profileType %r is not a profile type" % kind_name, 409, "ENTITY_ERROR.ATTRIBUTE.INVALID")
            plist_platform, platform, kind, cert_types, bundle_platforms = PROFILE_TYPES[kind_name]
            bundle = linked(req, "bundleId", "bundleIds", True)[0]
            certificates = linked(req, "certificates", "certificates", True)
            devices = linked(req, "devices", "devices", False)
            if devices and kind not in ("development", "adhoc"):
                violation("devices are not part of a %s profile" % kind_name, 409, "ENTITY_ERROR.RELATIONSHIP.INVALID")
            if not certificates:
                refuse("ENTITY_ERROR.RELATIONSHIP.INVALID", "A profile needs at least one certificate.")
            wrong = [c["id"] for c in certificates if c["attributes"]["certificateType"] not in cert_types]
            if wrong:
                refuse("ENTITY_ERROR.RELATIONSHIP.INVALID", "The certificates %s cannot be used in a %s profile." % (wrong, kind_name))
            if bundle["attributes"]["platform"] not in bundle_platforms:
                refuse("ENTITY_ERROR", "You are not allowed to create '%s' profile with App ID '%s'." % (plist_platform, bundle["id"]))
            if kind in ("development", "adhoc") and not [d for d in devices if d["attributes"]["status"] == "ENABLED"]:
                refuse("ENTITY_ERROR.RELATIONSHIP.INVALID", "A %s profile needs at least one enabled device." % kind_name)
            if find("profiles", lambda p: p["attributes"]["name"] == name):
                refuse("ENTITY_ERROR.ATTRIBUTE.INVALID", "Multiple profiles found with the name '%s'. Please remove the duplicate profiles "
                       "and try again." % name, "An attribute value is invalid.")
            created = now()
            expires = min([created + 86400 * int(SETTINGS.get("profile_days", 365))] + [c.get("_expires", created + 86400 * 365) for c in certificates])
            profile_uuid = str(uuidlib.uuid4()).upper()
            content = profile_plist(name, kind, plist_platform, bundle, certificates, devices, created, expires, profile_uuid)
            ca_key, ca_cert = signing_authority()
            signed = pkcs7.PKCS7SignatureBuilder().set_data(content).add_signer(ca_cert, ca_key, hashes.SHA256()).sign(serialization.Encoding.DER, [])
            made = make("profiles", {"name": name, "platform": platform, "profileType": kind_name, "profileState": "ACTIVE",
                                     "profileContent": base64.b64encode(signed).decode(), "uuid": profile_uuid,
                                     "createdDate": apple_time(created), "expirationDate": apple_time(expires)},
                        {"bundleId": {"type": "bundleIds", "id": bundle["id"]},
                         "certificates": [{"type": "certificates", "id": c["id"]} for c in certificates],
                         "devices": [{"type": "devices", "id": d["id"]} for d in devices]})
            made["_expires"] = expires
            return 201, {"data": profile_json(req, made, []), "links": {"self": req.base + req.path}}

        @route("DELETE", r"/v1/profiles/(?P<id>[^/]+)")
        def delete_profile(req, entry, id):
            get("profiles", id)
            del store["profiles"][id]
            return 204, None
        """#
}
