import SwiftASN1

/// Small helpers over swift-asn1 for the hand-built structures of PKCS#12 and CMS, whose
/// types swift-certificates does not expose.
enum DERNodes {
    /// Thrown while walking a structure; the caller turns it into an error naming the file.
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    /// The children of a constructed node whose identifier is `identifier`.
    static func children(_ node: ASN1Node, _ identifier: ASN1Identifier = .sequence, _ what: String) throws -> [ASN1Node] {
        guard node.identifier == identifier, case let .constructed(nodes) = node.content else {
            throw Malformed(description: "\(what) is malformed")
        }
        return Array(nodes)
    }

    /// The child at `index`, or an error saying which part is missing.
    static func child(_ nodes: [ASN1Node], _ index: Int, _ what: String) throws -> ASN1Node {
        guard index < nodes.count else { throw Malformed(description: "\(what) is missing") }
        return nodes[index]
    }

    /// The single child of an explicit `[number]` context tag.
    static func explicit(_ node: ASN1Node, _ number: UInt, _ what: String) throws -> ASN1Node {
        let tag = ASN1Identifier(tagWithNumber: number, tagClass: .contextSpecific)
        return try child(try children(node, tag, what), 0, what)
    }

    static func oid(_ node: ASN1Node, _ what: String) throws -> ASN1ObjectIdentifier {
        do { return try ASN1ObjectIdentifier(derEncoded: node) } catch {
            throw Malformed(description: "\(what) is not an object identifier")
        }
    }

    static func integer(_ node: ASN1Node, _ what: String) throws -> Int {
        do { return try Int(derEncoded: node) } catch { throw Malformed(description: "\(what) is not a small integer") }
    }

    /// The bytes of an OCTET STRING (or of an implicitly tagged one when `identifier` is given),
    /// primitive or, as BER allows, constructed from segments.
    static func octets(_ node: ASN1Node, _ identifier: ASN1Identifier = .octetString, _ what: String) throws -> [UInt8] {
        guard node.identifier == identifier else { throw Malformed(description: "\(what) is not an octet string") }
        switch node.content {
        case let .primitive(bytes):
            return Array(bytes)
        case let .constructed(segments):
            var joined: [UInt8] = []
            for segment in segments { joined += try octets(segment, .octetString, what) }
            return joined
        }
    }
}

extension DER.Serializer {
    mutating func sequence(_ body: (inout DER.Serializer) throws -> Void) throws {
        try appendConstructedNode(identifier: .sequence, body)
    }

    mutating func explicit(_ number: UInt, _ body: (inout DER.Serializer) throws -> Void) throws {
        try appendConstructedNode(identifier: ASN1Identifier(tagWithNumber: number, tagClass: .contextSpecific), body)
    }

    mutating func octetString(_ bytes: [UInt8]) throws {
        try serialize(ASN1OctetString(contentBytes: ArraySlice(bytes)))
    }

    /// An AlgorithmIdentifier with a NULL parameter.
    mutating func algorithm(_ oid: ASN1ObjectIdentifier) throws {
        try sequence { coder in
            try coder.serialize(oid)
            try coder.serialize(ASN1Null())
        }
    }

    /// A DER SET OF whose members are `encoded` (each a complete element), sorted as DER requires.
    mutating func setOf(encoded: [[UInt8]]) {
        appendConstructedNode(identifier: .set) { coder in
            for element in encoded.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                coder.serializeRawBytes(element)
            }
        }
    }

    /// Serializes `body` on its own and returns the bytes.
    static func encode(_ body: (inout DER.Serializer) throws -> Void) rethrows -> [UInt8] {
        var coder = DER.Serializer()
        try body(&coder)
        return coder.serializedBytes
    }
}
