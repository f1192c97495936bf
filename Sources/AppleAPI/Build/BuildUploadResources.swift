import Foundation

/// One of a reserved file's upload operations: send `length` bytes from `offset` with `method`
/// to `url`, with `requestHeaders`.
public struct BuildUploadOperation: Sendable, Hashable {
    public var method: String
    public var url: String
    public var offset: Int64
    public var length: Int64
    public var headers: [(name: String, value: String)]

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.method == rhs.method && lhs.url == rhs.url && lhs.offset == rhs.offset && lhs.length == rhs.length
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(url)
        hasher.combine(offset)
    }

    init?(_ json: JSONValue) {
        guard let url = json["url"]?.string, let offset = json["offset"]?.int, let length = json["length"]?.int else { return nil }
        method = json["method"]?.string ?? "PUT"
        self.url = url
        self.offset = offset
        self.length = length
        headers = (json["requestHeaders"]?.array ?? []).compactMap { header in
            guard let name = header["name"]?.string, let value = header["value"]?.string else { return nil }
            return (name, value)
        }
    }
}

/// A `buildUploads` resource as the uploader reads it.
struct BuildUploadResource {
    var id: String
    var state: String
    var errors: [String]
    var buildID: String?
    private var attributes: [String: JSONValue]

    init(_ resource: JSONAPIResource) {
        id = resource.id
        attributes = resource.attributes
        let details = resource.attributes["state"]
        state = details?["state"]?.string ?? "AWAITING_UPLOAD"
        errors = (details?["errors"]?.array ?? []).map { item in
            [item["code"]?.string, item["description"]?.string].compactMap { $0 }.joined(separator: ": ")
        }
        buildID = resource.related("build").first?.id
    }

    func string(_ name: String) -> String? { name == "state" ? state : attributes[name]?.string }
}

/// A `buildUploadFiles` resource as the uploader reads it.
struct BuildUploadFileResource {
    var id: String
    var fileName: String
    var fileSize: Int64
    var assetState: String
    var operations: [BuildUploadOperation]

    init(_ resource: JSONAPIResource) {
        id = resource.id
        fileName = resource.string("fileName") ?? ""
        fileSize = resource.attributes["fileSize"]?.int ?? -1
        assetState = resource.attributes["assetDeliveryState"]?["state"]?.string ?? "AWAITING_UPLOAD"
        operations = (resource.attributes["uploadOperations"]?.array ?? []).compactMap(BuildUploadOperation.init)
    }
}
