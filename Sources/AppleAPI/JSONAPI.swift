import Foundation

/// A resource's identity in JSON:API: its `type` and `id`.
public struct JSONAPIIdentifier: Sendable, Hashable, Codable {
    /// The resource type, e.g. `apps`.
    public var type: String
    /// The id.
    public var id: String

    /// Creates an identifier.
    public init(type: String, id: String) {
        self.type = type
        self.id = id
    }

    /// As JSON: `{"type": ..., "id": ...}`.
    public var json: JSONValue { ["type": .string(type), "id": .string(id)] }
}

/// One resource of a JSON:API document: `type`, `id`, `attributes`, `relationships`.
public struct JSONAPIResource: Sendable, Hashable, Decodable {
    /// The resource type.
    public var type: String
    /// The id (absent only in documents a client sends to create a resource).
    public var id: String
    /// The attributes (absent ones are left out).
    public var attributes: [String: JSONValue]
    /// Each relationship's `data` as JSON (an identifier, an array of them, or null), by name.
    public var relationships: [String: JSONValue]

    private enum CodingKeys: String, CodingKey { case type, id, attributes, relationships }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(String.self, forKey: .type)
        id = try container.decodeIfPresent(String.self, forKey: .id) ?? ""
        attributes = try container.decodeIfPresent([String: JSONValue].self, forKey: .attributes) ?? [:]
        let links = try container.decodeIfPresent([String: JSONValue].self, forKey: .relationships) ?? [:]
        relationships = links.compactMapValues { $0["data"] }
    }

    /// The identifiers a relationship links to (none when it is null or was not included).
    public func related(_ name: String) -> [JSONAPIIdentifier] {
        guard let data = relationships[name] else { return [] }
        let items = data.array ?? [data]
        return items.compactMap { item in
            guard let type = item["type"]?.string, let id = item["id"]?.string else { return nil }
            return JSONAPIIdentifier(type: type, id: id)
        }
    }

    /// The string attribute `name`, or nil.
    public func string(_ name: String) -> String? { attributes[name]?.string }

    /// The attributes decoded into `type`.
    /// - Throws: `DecodingError` when they do not fit.
    public func decodeAttributes<T: Decodable>(as type: T.Type) throws -> T {
        try JSONValue.object(attributes).decode(as: T.self)
    }
}

/// A JSON:API response document: `data` (one resource or many), `included`, `links`, `meta`.
public struct JSONAPIDocument: Sendable, Hashable, Decodable {
    /// The primary resources (one element when `data` was a single resource).
    public var data: [JSONAPIResource]
    /// True when `data` was an array.
    public var isCollection: Bool
    /// Related resources the request asked to include.
    public var included: [JSONAPIResource]
    /// `links.next`: the next page of a collection, absolute.
    public var next: URL?
    /// `meta`, e.g. `{"paging": {"total": 3, "limit": 50}}`.
    public var meta: JSONValue?

    private enum CodingKeys: String, CodingKey { case data, included, links, meta }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let many = try? container.decode([JSONAPIResource].self, forKey: .data) {
            data = many
            isCollection = true
        } else if let one = try container.decodeIfPresent(JSONAPIResource.self, forKey: .data) {
            data = [one]
            isCollection = false
        } else {
            data = []
            isCollection = false
        }
        included = try container.decodeIfPresent([JSONAPIResource].self, forKey: .included) ?? []
        let links = try container.decodeIfPresent([String: JSONValue].self, forKey: .links) ?? [:]
        next = links["next"]?.string.flatMap(URL.init(string:))
        meta = try container.decodeIfPresent(JSONValue.self, forKey: .meta)
    }

    /// The first resource (primary or included) or relationship linkage without an id or with an
    /// empty one, described ("a 'builds' resource", "the 'build' linkage of 'buildUploads' 7"), or nil.
    /// Every answer is checked here, so no flow passes an empty id on.
    public var resourceWithoutID: String? {
        for resource in data + included {
            if resource.id.isEmpty { return "a '\(resource.type)' resource" }
            for (name, linkage) in resource.relationships.sorted(by: { $0.key < $1.key }) {
                for item in linkage.array ?? [linkage] where item != .null {
                    if (item["id"]?.string ?? "").isEmpty || (item["type"]?.string ?? "").isEmpty {
                        return "the '\(name)' linkage of '\(resource.type)' \(resource.id)"
                    }
                }
            }
        }
        return nil
    }

    /// The first (for a single resource: the) primary resource, or nil.
    public var first: JSONAPIResource? { data.first }

    /// The included resource with this identity, or nil.
    public func included(_ identifier: JSONAPIIdentifier) -> JSONAPIResource? {
        included.first { $0.type == identifier.type && $0.id == identifier.id }
    }
}

/// Builds the request documents App Store Connect expects.
public enum JSONAPI {
    /// `{"data": {"type", "id"?, "attributes"?, "relationships"?}}`. Relationship values are an
    /// identifier (to-one) or an array of identifiers (to-many), wrapped in `{"data": ...}` here.
    public static func document(type: String, id: String? = nil, attributes: [String: JSONValue] = [:],
                                relationships: [String: JSONValue] = [:]) -> JSONValue {
        var resource: [String: JSONValue] = ["type": .string(type)]
        if let id { resource["id"] = .string(id) }
        if !attributes.isEmpty { resource["attributes"] = .object(attributes) }
        if !relationships.isEmpty { resource["relationships"] = .object(relationships.mapValues { ["data": $0] }) }
        return ["data": .object(resource)]
    }

    /// `{"data": [identifiers]}`: the body of a to-many relationship call
    /// (`POST /v1/builds/{id}/relationships/betaGroups`).
    public static func linkage(_ identifiers: [JSONAPIIdentifier]) -> JSONValue {
        ["data": .array(identifiers.map(\.json))]
    }

    /// `{"data": identifier}`: the body of a to-one relationship call.
    public static func linkage(_ identifier: JSONAPIIdentifier) -> JSONValue {
        ["data": identifier.json]
    }
}
