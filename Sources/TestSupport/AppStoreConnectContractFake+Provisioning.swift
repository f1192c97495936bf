import Foundation

extension AppStoreConnectContractFake {
    /// CONTRACT FAKE section — certificates, bundle ids, devices and profiles, as Apple documents them:
    /// - https://developer.apple.com/documentation/appstoreconnectapi/certificates
    ///   (GET-v1-certificates: filter[certificateType|serialNumber|displayName|id], sort, fields, limit ≤ 200;
    ///   GET-v1-certificates-_id_; POST-v1-certificates (CertificateCreateRequest: csrContent, certificateType);
    ///   DELETE-v1-certificates-_id_ → 204)
    /// - https://developer.apple.com/documentation/appstoreconnectapi/bundle-ids (GET-v1-bundleIds,
    ///   POST-v1-bundleIds: identifier, name, platform, seedId)
    /// - https://developer.apple.com/documentation/appstoreconnectapi/devices (GET-v1-devices, POST-v1-devices)
    /// - https://developer.apple.com/documentation/appstoreconnectapi/profiles (GET-v1-profiles with
    ///   include=bundleId,certificates,devices and limit[certificates]/limit[devices] ≤ 50, GET-v1-profiles-_id_,
    ///   GET-v1-profiles-_id_-relationships-devices|certificates, POST-v1-profiles (ProfileCreateRequest),
    ///   DELETE-v1-profiles-_id_)
    /// Parameter names, enums and shapes cross-checked with the OpenAPI description 4.4.1 (CertificateType,
    /// BundleIdPlatform, ProfileCreateRequest, Device). Apple's answers as reported publicly: a certificate past
    /// the team's limit is 409 ENTITY_ERROR "You already have a current <type> certificate or a pending
    /// certificate request." (fastlane/fastlane#19349); an App ID name with other characters than letters,
    /// digits and spaces is 409 ENTITY_ERROR.ATTRIBUTE.INVALID (Cap-go/capgo.app#2385); `filter[identifier]`
    /// matches identifiers that contain the value (Kebechet/setup-apple-certificate#7).
    ///
    /// Certificates are issued from the CSR (parsed and its signature checked with Python's `cryptography`;
    /// PEM, or base64 DER without armour) by the test CA set with `useSigningAuthority`, with Apple's subject
    /// shape; profiles are XML plists like Apple's in CMS SignedData (content attached) signed by that CA.
    /// Settings: `certificate_limit` (per type, default 2), `certificate_days` (default 365), `profile_days`
    /// (default 365). The fake's own choices where Apple does not say: devices sent for an App Store, in-house
    /// or Developer ID profile are a violation; a development/ad hoc profile needs at least one enabled device;
    /// a second profile with an existing name is 409; revoked certificates move to `_revokedCertificates` and
    /// profiles with them become INVALID, as do expired profiles.
    static var provisioningSection: String { provisioningCertificatesSection + "\n\n" + provisioningProfilesSection }

    static let provisioningCertificatesSection = #"""
        import datetime, plistlib, uuid as uuidlib
        from cryptography import x509
        from cryptography.x509.oid import NameOID, ExtendedKeyUsageOID
        from cryptography.hazmat.primitives.asymmetric import rsa
        from cryptography.hazmat.primitives.serialization import pkcs7

        # certificateType -> (common name prefix, Apple's display of the type, platform)
        CERT_TYPES = {
            "DISTRIBUTION": ("Apple Distribution", "Distribution", None),
            "IOS_DISTRIBUTION": ("iPhone Distribution", "iOS Distribution", "IOS"),
            "DEVELOPMENT": ("Apple Development", "Development", None),
            "IOS_DEVELOPMENT": ("iPhone Developer", "iOS Development", "IOS"),
            "MAC_APP_DEVELOPMENT": ("Mac Developer", "Mac Development", "MAC_OS"),
            "MAC_APP_DISTRIBUTION": ("3rd Party Mac Developer Application", "Mac App Distribution", "MAC_OS"),
            "MAC_INSTALLER_DISTRIBUTION": ("3rd Party Mac Developer Installer", "Mac Installer Distribution", "MAC_OS"),
            "DEVELOPER_ID_APPLICATION": ("Developer ID Application", "Developer ID Application", "MAC_OS"),
            "DEVELOPER_ID_APPLICATION_G2": ("Developer ID Application", "Developer ID Application", "MAC_OS"),
        }
        ALL_CERT_TYPES = ["APPLE_PAY", "APPLE_PAY_MERCHANT_IDENTITY", "APPLE_PAY_PSP_IDENTITY", "APPLE_PAY_RSA", "DEVELOPER_ID_KEXT",
                          "DEVELOPER_ID_KEXT_G2", "DEVELOPER_ID_APPLICATION", "DEVELOPER_ID_APPLICATION_G2", "DEVELOPMENT", "DISTRIBUTION",
                          "IDENTITY_ACCESS", "IOS_DEVELOPMENT", "IOS_DISTRIBUTION", "MAC_APP_DISTRIBUTION", "MAC_INSTALLER_DISTRIBUTION",
                          "MAC_APP_DEVELOPMENT", "PASS_TYPE_ID", "PASS_TYPE_ID_WITH_NFC"]
        PLATFORMS = ["IOS", "MAC_OS", "UNIVERSAL", "SERVICES"]
        CA = {}

        def apple_time(t):
            return time.strftime("%Y-%m-%dT%H:%M:%S.000+0000", time.gmtime(t))

        def signing_authority():
            if "ca_key" not in SETTINGS:
                raise ApiError(500, "UNEXPECTED_ERROR", "Contract fake not set up", "call useSigningAuthority first")
            if CA.get("pem") != SETTINGS["ca_key"]:
                CA["pem"] = SETTINGS["ca_key"]
                CA["key"] = serialization.load_pem_private_key(SETTINGS["ca_key"].encode(), None)
                CA["cert"] = x509.load_pem_x509_certificate(SETTINGS["ca_cert"].encode())
            return CA["key"], CA["cert"]

        def team():
            return SETTINGS.get("team_id", "AB12CD34EF"), SETTINGS.get("team_name", "Slipway test team")

        def prov_attributes(req, allowed, required):
            attributes = req.json["data"].get("attributes", {})
            unknown = sorted(set(attributes) - set(allowed))
            if unknown:
                violation("undocumented attributes %s" % unknown, 409, "ENTITY_ERROR.ATTRIBUTE.UNKNOWN")
            missing = [n for n in required if not isinstance(attributes.get(n), str)]
            if missing:
                violation("missing required attributes %s" % missing, 409, "ENTITY_ERROR.ATTRIBUTE.REQUIRED")
            return attributes

        def prov_created(req, r):
            return 201, {"data": resource_json(r, req.base), "links": {"self": req.base + req.path}}

        def refuse(code, detail, title="There is a problem with the request entity"):
            raise ApiError(409, code, title, detail)

        def enum_filter(req, name, allowed):
            values = (req.one(name) or "").split(",") if req.one(name) else []
            bad = [v for v in values if v not in allowed]
            if bad:
                violation("%s has values %s outside %s" % (name, bad, allowed))
            return values

        def filtered(req, items, names):
            for name in names:
                wanted = req.one("filter[%s]" % name)
                if wanted:
                    items = [r for r in items if (r["id"] if name == "id" else str(r["attributes"].get(name))) in wanted.split(",")]
            return items

        def sorted_by(req, items, allowed):
            key = req.one("sort") or "id"
            if key not in allowed:
                violation("sort %r is not one of %s" % (key, allowed))
            name = key.lstrip("-")
            return sorted(items, key=lambda r: (r["id"].zfill(12) if name == "id" else str(r["attributes"].get(name))), reverse=key.startswith("-"))

        def load_csr(text):
            try:
                if "-----BEGIN" in text:
                    return x509.load_pem_x509_csr(text.encode())
                return x509.load_der_x509_csr(base64.b64decode(text, validate=False))
            except Exception as error:
                violation("csrContent is not a PKCS#10 request (PEM, or base64 DER): %s" % error, 409, "ENTITY_ERROR.ATTRIBUTE.INVALID")

        CERT_FIELDS = ["name", "certificateType", "displayName", "serialNumber", "platform", "expirationDate", "certificateContent", "activated", "passTypeId"]

        @route("GET", r"/v1/certificates", params=["filter[displayName]", "filter[certificateType]", "filter[serialNumber]", "filter[id]",
               "sort", "fields[certificates]", "fields[passTypeIds]", "limit", "include", "cursor"])
        def list_certificates(req, entry):
            enum_filter(req, "filter[certificateType]", ALL_CERT_TYPES)
            enum_filter(req, "fields[certificates]", CERT_FIELDS)
            items = filtered(req, find("certificates"), ["certificateType", "serialNumber", "displayName", "id"])
            return collection(req, sorted_by(req, items, ["displayName", "-displayName", "certificateType", "-certificateType",
                                                          "serialNumber", "-serialNumber", "id", "-id"]), "certificates")

        @route("GET", r"/v1/certificates/(?P<id>[^/]+)", params=["fields[certificates]", "fields[passTypeIds]", "include"])
        def read_certificate(req, entry, id):
            return single(req, get("certificates", id))

        @route("POST", r"/v1/certificates")
        def create_certificate(req, entry):
            attributes = prov_attributes(req, ["csrContent", "certificateType"], ["csrContent", "certificateType"])
            if req.json["data"].get("relationships"):
                violation("relationships are only for pass type and merchant ids", 409, "ENTITY_ERROR.RELATIONSHIP.INVALID")
            kind = attributes["certificateType"]
            if kind not in ALL_CERT_TYPES:
                violation("certificateType %r is not a CertificateType" % kind, 409, "ENTITY_ERROR.ATTRIBUTE.INVALID")
            if kind not in CERT_TYPES:
                refuse("ENTITY_ERROR.ATTRIBUTE.INVALID", "the contract fake does not issue %s certificates" % kind)
            csr = load_csr(attributes["csrContent"])
            if not csr.is_signature_valid:
                refuse("ENTITY_ERROR.ATTRIBUTE.INVALID", "The certificate signing request's signature is not valid.")
            public_key = csr.public_key()
            if not isinstance(public_key, rsa.RSAPublicKey) or public_key.key_size != 2048:
                refuse("ENTITY_ERROR.ATTRIBUTE.INVALID", "The certificate signing request must be for an RSA 2048-bit key.")
            prefix, display, platform = CERT_TYPES[kind]
            current = find("certificates", lambda c: c["attributes"]["certificateType"] == kind and c.get("_expires", now() + 1) > now())
            if len(current) >= int(SETTINGS.get("certificate_limit", 2)):
                refuse("ENTITY_ERROR", "You already have a current %s certificate or a pending certificate request." % display)
            team_id, team_name = team()
            ca_key, ca_cert = signing_authority()
            start = now()
            end = start + 86400 * int(SETTINGS.get("certificate_days", 365))
            subject = x509.Name([x509.NameAttribute(NameOID.USER_ID, team_id),
                                 x509.NameAttribute(NameOID.COMMON_NAME, "%s: %s (%s)" % (prefix, team_name, team_id)),
                                 x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, team_id),
                                 x509.NameAttribute(NameOID.ORGANIZATION_NAME, team_name),
                                 x509.NameAttribute(NameOID.COUNTRY_NAME, "US")])
            serial = x509.random_serial_number()
            certificate = (x509.CertificateBuilder().subject_name(subject).issuer_name(ca_cert.subject).public_key(public_key)
                           .serial_number(serial)
                           .not_valid_before(datetime.datetime.fromtimestamp(start, datetime.timezone.utc))
                           .not_valid_after(datetime.datetime.fromtimestamp(end, datetime.timezone.utc))
                           .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
                           .add_extension(x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True)
                           .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CODE_SIGNING]), critical=False)
                           .sign(ca_key, hashes.SHA256()))
            der = certificate.public_bytes(serialization.Encoding.DER)
            made = make("certificates", {"name": "%s: %s" % (prefix, team_name), "certificateType": kind, "displayName": team_name,
                                         "serialNumber": "%X" % serial, "platform": platform, "expirationDate": apple_time(end),
                                         "certificateContent": base64.b64encode(der).decode(), "activated": True})
            made["_expires"] = end
            return prov_created(req, made)

        @route("DELETE", r"/v1/certificates/(?P<id>[^/]+)")
        def revoke_certificate(req, entry, id):
            revoked = get("certificates", id)
            del store["certificates"][id]
            store.setdefault("_revokedCertificates", {})[id] = revoked
            for profile in find("profiles", lambda p: any(c["id"] == id for c in p["relationships"]["certificates"]["data"])):
                profile["attributes"]["profileState"] = "INVALID"
            return 204, None

        BUNDLE_FIELDS = ["name", "platform", "identifier", "seedId", "profiles", "bundleIdCapabilities", "app"]

        @route("GET", r"/v1/bundleIds", params=["filter[name]", "filter[platform]", "filter[identifier]", "filter[seedId]", "filter[id]",
               "sort", "fields[bundleIds]", "fields[profiles]", "fields[bundleIdCapabilities]", "fields[apps]", "limit", "include",
               "limit[bundleIdCapabilities]", "limit[profiles]", "cursor"])
        def list_bundle_ids(req, entry):
            enum_filter(req, "filter[platform]", ["IOS", "MAC_OS", "UNIVERSAL"])
            enum_filter(req, "fields[bundleIds]", BUNDLE_FIELDS)
            items = filtered(req, find("bundleIds"), ["name", "platform", "seedId", "id"])
            wanted = req.one("filter[identifier]")
            if wanted:
                # Apple's identifier filter matches identifiers that CONTAIN the value, not only equal ones.
                items = [b for b in items if any(v in b["attributes"]["identifier"] for v in wanted.split(","))]
            return collection(req, sorted_by(req, items, ["name", "-name", "platform", "-platform", "identifier", "-identifier",
                                                          "seedId", "-seedId", "id", "-id"]), "bundleIds")

        @route("POST", r"/v1/bundleIds")
        def register_bundle_id(req, entry):
            attributes = prov_attributes(req, ["name", "platform", "identifier", "seedId"], ["name", "platform", "identifier"])
            if attributes["platform"] not in PLATFORMS:
                violation("platform %r is not a BundleIdPlatform" % attributes["platform"], 409, "ENTITY_ERROR.ATTRIBUTE.INVALID")
            name, identifier = attributes["name"], attributes["identifier"]
            if not re.fullmatch(r"[A-Za-z0-9 ]*[A-Za-z0-9][A-Za-z0-9 ]*", name):
                refuse("ENTITY_ERROR.ATTRIBUTE.INVALID", "'%s' is not a valid name for an app id. Please choose a name containing only "
                       "alphanumeric characters and spaces." % name, "An attribute value is invalid.")
            if not re.fullmatch(r"[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(\.\*)?", identifier):
                refuse("ENTITY_ERROR.ATTRIBUTE.INVALID", "The identifier '%s' can only contain alphanumeric characters, hyphens and periods." % identifier,
                       "An attribute value is invalid.")
            if find("bundleIds", lambda b: b["attributes"]["identifier"].lower() == identifier.lower()):
                refuse("ENTITY_ERROR.ATTRIBUTE.INVALID", "An App ID with Identifier '%s' is not available. Please enter a different string." % identifier,
                       "An attribute value is invalid.")
            made = make("bundleIds", {"name": name, "identifier": identifier, "platform": attributes["platform"],
                                      "seedId": attributes.get("seedId") or team()[0]})
            return prov_created(req, made)

        DEVICE_FIELDS = ["name", "platform", "udid", "deviceClass", "status", "model", "addedDate"]

        @route("GET", r"/v1/devices", params=["filter[name]", "filter[platform]", "filter[udid]", "filter[status]", "filter[id]", "sort",
               "fields[devices]", "limit", "cursor"])
        def list_devices(req, entry):
            enum_filter(req, "filter[platform]", ["IOS", "MAC_OS", "UNIVERSAL"])
            enum_filter(req, "filter[status]", ["ENABLED", "DISABLED"])
            enum_filter(req, "fields[devices]", DEVICE_FIELDS)
            items = filtered(req, find("devices"), ["name", "platform", "udid", "status", "id"])
            return collection(req, sorted_by(req, items, ["name", "-name", "platform", "-platform", "udid", "-udid", "status", "-status",
                                                          "id", "-id"]), "devices")

        @route("POST", r"/v1/devices")
        def register_device(req, entry):
            attributes = prov_attributes(req, ["name", "platform", "udid"], ["name", "platform", "udid"])
            if attributes["platform"] not in PLATFORMS:
                violation("platform %r is not a BundleIdPlatform" % attributes["platform"], 409, "ENTITY_ERROR.ATTRIBUTE.INVALID")
            udid = attributes["udid"]
            if not re.fullmatch(r"[0-9a-fA-F]{40}|[0-9A-Fa-f]{8}-[0-9A-Fa-f]{16}|[0-9A-Fa-f]{8}(-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12}", udid):
                refuse("ENTITY_ERROR.ATTRIBUTE.INVALID", "An attribute value is invalid - '%s' is not a valid UDID." % udid,
                       "An attribute value is invalid.")
            if find("devices", lambda d: d["attributes"]["udid"].lower() == udid.lower()):
                refuse("ENTITY_ERROR.ATTRIBUTE.INVALID", "A device with number '%s' already exists on this team." % udid,
                       "An attribute value is invalid.")
            check_device_limit(attributes["platform"])
            made = make("devices", {"name": attributes["name"], "udid": udid, "platform": attributes["platform"], "status": "ENABLED",
                                    "deviceClass": "MAC" if attributes["platform"] == "MAC_OS" else "IPHONE", "model": None,
                                    "addedDate": apple_time(now())})
            return prov_created(req, made)
        """#
}

extension AppStoreConnectContractFake {
    /// Hands the fake the test CA that issues its certificates and signs its profiles, and the team
    /// the certificates and profiles name.
    public func useSigningAuthority(_ authority: TestCertificateAuthority, teamID: String = "AB12CD34EF",
                                    teamName: String = "Slipway test team") throws {
        try set(["ca_key": Self.quoted(try authority.privateKeyPEM), "ca_cert": Self.quoted(try authority.certificatePEM),
                 "team_id": Self.quoted(teamID), "team_name": Self.quoted(teamName)])
    }

    /// Seeds a registered device; returns its id.
    @discardableResult
    public func seedDevice(udid: String, name: String, platform: String = "IOS", status: String = "ENABLED",
                           deviceClass: String = "IPHONE") throws -> String {
        try seed("devices", attributes: "{\"udid\": \(Self.quoted(udid)), \"name\": \(Self.quoted(name)), \"platform\": "
                 + "\(Self.quoted(platform)), \"status\": \(Self.quoted(status)), \"deviceClass\": \(Self.quoted(deviceClass)), "
                 + "\"model\": null, \"addedDate\": \"2026-01-01T00:00:00.000+0000\"}")
    }

    /// Seeds a registered bundle id (seed id `teamID`); returns its id.
    @discardableResult
    public func seedBundleID(identifier: String, platform: String = "IOS", name: String? = nil, teamID: String = "AB12CD34EF") throws
        -> String {
        let name = name ?? identifier.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: " ")
        return try seed("bundleIds", attributes: "{\"identifier\": \(Self.quoted(identifier)), \"name\": \(Self.quoted(name)), "
                        + "\"platform\": \(Self.quoted(platform)), \"seedId\": \(Self.quoted(teamID))}")
    }
}
