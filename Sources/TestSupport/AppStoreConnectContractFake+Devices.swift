import Foundation

extension AppStoreConnectContractFake {
    /// CONTRACT FAKE section — changing devices, as documented at
    /// https://developer.apple.com/documentation/appstoreconnectapi/patch-v1-devices-_id_ (DeviceUpdateRequest:
    /// `name`, `status` ENABLED|DISABLED; answers 200 with the device), cross-checked with the OpenAPI
    /// description 4.4.1. GET and POST of /v1/devices are in the provisioning section.
    ///
    /// The yearly device limit: Apple allows 100 devices per kind (iPhone, iPad, Mac, ...) per membership
    /// year, and disabling one does not free its place until the membership renews (Apple's account help,
    /// "Devices"). Past it, Apple answers
    /// registering with 403 FORBIDDEN_ERROR "This request is forbidden for security reasons" / "Your
    /// development team has reached the maximum number of registered iPhone devices." (as reported through
    /// fastlane in AtB-AS/mittatb-app#5972). The setting `device_limit` (default 100) counts every device of the
    /// platform, enabled or not.
    static let devicesSection = #"""
        DEVICE_KINDS = {"IOS": "iPhone", "MAC_OS": "Mac", "UNIVERSAL": "iPhone"}

        def check_device_limit(platform):
            limit = int(SETTINGS.get("device_limit", 100))
            if len(find("devices", lambda d: d["attributes"]["platform"] == platform)) >= limit:
                raise ApiError(403, "FORBIDDEN_ERROR", "This request is forbidden for security reasons",
                               "Your development team has reached the maximum number of registered %s devices." % DEVICE_KINDS.get(platform, "iPhone"))

        @route("PATCH", r"/v1/devices/(?P<id>[^/]+)")
        def update_device(req, entry, id):
            device = get("devices", id)
            data = req.json["data"]
            if data.get("id") != id:
                violation("data.id %r is not the id in the path %r" % (data.get("id"), id), 409, "ENTITY_ERROR.ATTRIBUTE.INVALID")
            attributes = data.get("attributes", {})
            unknown = sorted(set(attributes) - {"name", "status"})
            if unknown:
                violation("undocumented attributes %s" % unknown, 409, "ENTITY_ERROR.ATTRIBUTE.UNKNOWN")
            if "status" in attributes and attributes["status"] not in ("ENABLED", "DISABLED"):
                violation("status %r is not ENABLED or DISABLED" % attributes["status"], 409, "ENTITY_ERROR.ATTRIBUTE.INVALID")
            if "name" in attributes and (not isinstance(attributes["name"], str) or not attributes["name"].strip()):
                raise ApiError(409, "ENTITY_ERROR.ATTRIBUTE.INVALID", "An attribute value is invalid.", "The device name may not be empty.")
            device["attributes"].update({k: v for k, v in attributes.items() if v is not None})
            return single(req, device)
        """#
}
