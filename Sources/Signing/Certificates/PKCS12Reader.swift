import Foundation
import SwiftASN1

extension SigningIdentity {
    /// Reads a PKCS#12 file written by Slipway, by OpenSSL 3 (`openssl pkcs12 -export`, without
    /// `-legacy`) or by any tool using PBES2 with AES-CBC and an HMAC-SHA256 or -SHA1 MAC. When the
    /// file holds several certificates (a chain), the one whose public key is the key's is kept.
    /// - Parameter file: names the file in errors.
    /// - Throws: `SigningCertificateError.wrongPKCS12Password` when the MAC (or, without a MAC,
    ///   the decryption) fails; `.unsupportedPKCS12Algorithm` for the legacy RC2/3DES forms;
    ///   `.unreadablePKCS12`, `.incompletePKCS12` or `.keyDoesNotMatchCertificate` otherwise.
    public init(pkcs12 bytes: [UInt8], password: String, file: String) throws {
        var reader = PKCS12Contents(file: file, password: password)
        do {
            try reader.read(bytes)
        } catch let error as SigningCertificateError {
            throw error
        } catch let error as DERNodes.Malformed {
            throw SigningCertificateError.unreadablePKCS12(file: file, detail: error.description)
        } catch {
            throw SigningCertificateError.unreadablePKCS12(file: file, detail: "\(error)")
        }
        guard let keyBytes = reader.keys.first, reader.keys.count == 1 else {
            throw SigningCertificateError.incompletePKCS12(file: file, detail: "\(reader.keys.count) private keys")
        }
        guard !reader.certificates.isEmpty else {
            throw SigningCertificateError.incompletePKCS12(file: file, detail: "no certificate")
        }
        let key = try SigningPrivateKey(bytes: keyBytes, file: file)
        var certificates: [SigningCertificate] = []
        for der in reader.certificates { certificates.append(try SigningCertificate(bytes: der, file: file)) }
        guard let certificate = certificates.first(where: { $0.matches(key) }) else {
            throw SigningCertificateError.keyDoesNotMatchCertificate(keyFile: file + " (its key)",
                                                                     certificateFile: file + " (its certificate)")
        }
        try self.init(certificate: certificate, key: key, friendlyName: reader.friendlyName ?? certificate.commonName)
    }
}

/// What one PKCS#12 file may cost. A file names its own iteration counts and holds any number
/// of bags, each encrypted bag one key derivation: 60 encrypted bags at 10,000,000 iterations
/// each fit in 8.9 KB and took 6.5 CPU-minutes. Real exports are far below both limits:
/// OpenSSL 3's `pkcs12 -export` makes three derivations (MAC, certificates, key) of 2,048
/// iterations each (`PKCS12_DEFAULT_ITER`), 6,144 in all; Apple's Security framework writes
/// 2,048 for encryption and 1 for the MAC; Java's keytool 10,000 for each of the three. A
/// file holds a key, its certificate and perhaps a chain of a few more.
enum PKCS12Limits {
    /// The sum of the iteration counts of every key derivation in one file (the MAC's and each
    /// PBES2 one's): 160 times what OpenSSL's default export needs, and still ten times a file
    /// made with `-iter 300000 -maciter 300000`; about a CPU-second at worst.
    static let totalIterations = 1_000_000
    /// Safe bags in one file, counted over every safe contents (nested ones included).
    static let bags = 64
    /// Content infos in the authenticated safe.
    static let contents = 16
}

/// Walks a PFX, collecting certificates, PKCS#8 keys and the first friendly name.
///
/// Every key derivation is paid for from `PKCS12Limits.totalIterations`: before the first one,
/// the iterations of every derivation visible without decrypting (the MAC, each encrypted
/// content, each shrouded key outside encrypted contents) are summed and the file is refused
/// when they pass the budget; a derivation found only after decrypting is checked against
/// what is left before it runs.
private struct PKCS12Contents {
    let file: String
    let password: String
    var certificates: [[UInt8]] = []
    var keys: [[UInt8]] = []
    var friendlyName: String?
    /// Iterations derived so far, and bags read so far.
    private var spentIterations = 0
    private var bagCount = 0

    init(file: String, password: String) {
        self.file = file
        self.password = password
    }

    mutating func read(_ bytes: [UInt8]) throws {
        let root: ASN1Node
        do { root = try BER.parse(bytes) } catch { throw DERNodes.Malformed(description: "it is not DER: \(error)") }
        let pfx = try DERNodes.children(root, .sequence, "the PFX")
        guard try DERNodes.integer(try DERNodes.child(pfx, 0, "the version"), "the version") == 3 else {
            throw DERNodes.Malformed(description: "its version is not 3")
        }
        let authSafe = try DERNodes.children(try DERNodes.child(pfx, 1, "the content"), .sequence, "the content")
        guard try DERNodes.oid(try DERNodes.child(authSafe, 0, "the content type"), "the content type") == PKCS12OID.data else {
            throw SigningCertificateError.unsupportedPKCS12Algorithm(file: file, algorithm: "public-key integrity mode")
        }
        let authSafeBytes = try DERNodes.octets(try DERNodes.explicit(try DERNodes.child(authSafe, 1, "the content"), 0, "the content"),
                                                .octetString, "the content")
        let contents = try DERNodes.children(try BER.parse(authSafeBytes), .sequence, "the authenticated safe")
        try checkBudget(mac: pfx.count > 2 ? pfx[2] : nil, contents: contents)
        if pfx.count > 2 { try verifyMAC(pfx[2], over: authSafeBytes) }
        for contentInfo in contents { try readContentInfo(contentInfo) }
    }

    /// Refuses the file, before any key derivation, when its visible derivations (the MAC, the
    /// encrypted contents, the shrouded keys in plain contents) together pass the iteration
    /// budget, or when it has too many contents or bags in plain view.
    private func checkBudget(mac: ASN1Node?, contents: [ASN1Node]) throws {
        guard contents.count <= PKCS12Limits.contents else {
            throw SigningCertificateError.pkcs12OverBudget(
                file: file, detail: "it has \(contents.count) contents; Slipway reads at most \(PKCS12Limits.contents)")
        }
        var iterations = try mac.map(Self.macIterations) ?? 0
        var bags = 0
        for contentInfo in contents {
            let parts = try DERNodes.children(contentInfo, .sequence, "a content")
            let type = try DERNodes.oid(try DERNodes.child(parts, 0, "a content type"), "a content type")
            let body = try DERNodes.explicit(try DERNodes.child(parts, 1, "a content"), 0, "a content")
            if type == PKCS12OID.encryptedData {
                iterations += try encryptedContent(body).pbe.iterations
            } else if type == PKCS12OID.data {
                let safeBags = try DERNodes.children(try BER.parse(try DERNodes.octets(body, .octetString, "a data content")),
                                                     .sequence, "the safe contents")
                bags += safeBags.count
                guard bags <= PKCS12Limits.bags else { throw overBudget(bags: bags) }
                for bag in safeBags { iterations += try Self.shroudedKey(bag, file: file)?.pbe.iterations ?? 0 }
            }
            guard iterations <= PKCS12Limits.totalIterations else { throw overBudget(iterations: iterations) }
        }
        guard iterations <= PKCS12Limits.totalIterations else { throw overBudget(iterations: iterations) }
    }

    private func overBudget(iterations: Int) -> SigningCertificateError {
        .pkcs12OverBudget(file: file, detail: "its key derivations ask for \(iterations) iterations in all (at least); "
            + "Slipway derives at most \(PKCS12Limits.totalIterations) per file (OpenSSL's default export needs 6144)")
    }

    private func overBudget(bags: Int) -> SigningCertificateError {
        .pkcs12OverBudget(file: file, detail: "it has \(bags) bags (at least); Slipway reads at most \(PKCS12Limits.bags)")
    }

    /// Pays `iterations` from the budget before a derivation runs.
    private mutating func spend(_ iterations: Int) throws {
        let (total, overflow) = spentIterations.addingReportingOverflow(iterations)
        guard !overflow, total <= PKCS12Limits.totalIterations else { throw overBudget(iterations: overflow ? Int.max : total) }
        spentIterations = total
    }

    private static func macIterations(_ node: ASN1Node) throws -> Int {
        let macData = try DERNodes.children(node, .sequence, "the MAC")
        let iterations = macData.count > 2 ? try DERNodes.integer(macData[2], "the MAC iterations") : 1
        guard iterations > 0, iterations <= 10_000_000 else { throw DERNodes.Malformed(description: "the MAC iterations are out of range") }
        return iterations
    }

    /// An encrypted content's PBES2 parameters and ciphertext.
    private func encryptedContent(_ body: ASN1Node) throws -> (pbe: PKCS12Crypto.PBES2, ciphertext: [UInt8]) {
        let encryptedData = try DERNodes.children(body, .sequence, "an encrypted content")
        let info = try DERNodes.children(try DERNodes.child(encryptedData, 1, "an encrypted content"), .sequence, "an encrypted content")
        let pbe = try PKCS12Crypto.PBES2(algorithm: try DERNodes.child(info, 1, "its algorithm"), file: file)
        let tag = ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)
        return (pbe, try DERNodes.octets(try DERNodes.child(info, 2, "its ciphertext"), tag, "its ciphertext"))
    }

    /// A shrouded key bag's PBES2 parameters and ciphertext; nil for another kind of bag.
    private static func shroudedKey(_ bag: ASN1Node, file: String) throws -> (pbe: PKCS12Crypto.PBES2, ciphertext: [UInt8])? {
        let parts = try DERNodes.children(bag, .sequence, "a bag")
        guard try DERNodes.oid(try DERNodes.child(parts, 0, "a bag type"), "a bag type") == PKCS12OID.shroudedKeyBag else { return nil }
        let value = try DERNodes.explicit(try DERNodes.child(parts, 1, "a bag value"), 0, "a bag value")
        let info = try DERNodes.children(value, .sequence, "a shrouded key")
        let pbe = try PKCS12Crypto.PBES2(algorithm: try DERNodes.child(info, 0, "its algorithm"), file: file)
        return (pbe, try DERNodes.octets(try DERNodes.child(info, 1, "its ciphertext"), .octetString, "the key"))
    }

    private mutating func verifyMAC(_ node: ASN1Node, over content: [UInt8]) throws {
        let macData = try DERNodes.children(node, .sequence, "the MAC")
        let digestInfo = try DERNodes.children(try DERNodes.child(macData, 0, "the MAC digest"), .sequence, "the MAC digest")
        let algorithm = try DERNodes.children(try DERNodes.child(digestInfo, 0, "the MAC algorithm"), .sequence, "the MAC algorithm")
        let oid = try DERNodes.oid(try DERNodes.child(algorithm, 0, "the MAC algorithm"), "the MAC algorithm")
        let hash: PKCS12Crypto.MACHash
        switch oid {
        case PKCS12OID.sha256: hash = .sha256
        case PKCS12OID.sha1: hash = .sha1
        default: throw SigningCertificateError.unsupportedPKCS12Algorithm(file: file, algorithm: "the MAC digest \(oid)")
        }
        let expected = try DERNodes.octets(try DERNodes.child(digestInfo, 1, "the MAC value"), .octetString, "the MAC value")
        let salt = try DERNodes.octets(try DERNodes.child(macData, 1, "the MAC salt"), .octetString, "the MAC salt")
        let iterations = try Self.macIterations(node)
        try spend(iterations)
        let key = PKCS12Crypto.deriveKey(password: PKCS12Crypto.bmpPassword(password), salt: salt, id: 3,
                                         iterations: iterations, count: hash.outputSize, hash: hash)
        guard hash.hmac(key: key, data: content) == expected else {
            throw SigningCertificateError.wrongPKCS12Password(file: file)
        }
    }

    private mutating func readContentInfo(_ node: ASN1Node) throws {
        let parts = try DERNodes.children(node, .sequence, "a content")
        let type = try DERNodes.oid(try DERNodes.child(parts, 0, "a content type"), "a content type")
        let body = try DERNodes.explicit(try DERNodes.child(parts, 1, "a content"), 0, "a content")
        switch type {
        case PKCS12OID.data:
            try readSafeContents(try DERNodes.octets(body, .octetString, "a data content"))
        case PKCS12OID.encryptedData:
            let (pbe, ciphertext) = try encryptedContent(body)
            try readSafeContents(try decrypt(ciphertext, pbe))
        default:
            throw SigningCertificateError.unsupportedPKCS12Algorithm(file: file, algorithm: "a content of type \(type)")
        }
    }

    private mutating func decrypt(_ ciphertext: [UInt8], _ pbe: PKCS12Crypto.PBES2) throws -> [UInt8] {
        try spend(pbe.iterations)
        do { return try pbe.decrypt(ciphertext, password: password) } catch {
            // Only reached for a file without a MAC: bad padding is how a wrong password shows.
            throw SigningCertificateError.wrongPKCS12Password(file: file)
        }
    }

    private mutating func readSafeContents(_ bytes: [UInt8]) throws {
        for bag in try DERNodes.children(try BER.parse(bytes), .sequence, "the safe contents") {
            bagCount += 1
            guard bagCount <= PKCS12Limits.bags else { throw overBudget(bags: bagCount) }
            let parts = try DERNodes.children(bag, .sequence, "a bag")
            let type = try DERNodes.oid(try DERNodes.child(parts, 0, "a bag type"), "a bag type")
            let value = try DERNodes.explicit(try DERNodes.child(parts, 1, "a bag value"), 0, "a bag value")
            switch type {
            case PKCS12OID.certBag:
                let certBag = try DERNodes.children(value, .sequence, "a certificate bag")
                guard try DERNodes.oid(try DERNodes.child(certBag, 0, "a certificate type"), "a certificate type")
                        == PKCS12OID.x509Certificate else { continue }
                certificates.append(try DERNodes.octets(try DERNodes.explicit(try DERNodes.child(certBag, 1, "a certificate"), 0,
                                                                               "a certificate"), .octetString, "a certificate"))
            case PKCS12OID.shroudedKeyBag:
                guard let (pbe, ciphertext) = try Self.shroudedKey(bag, file: file) else { continue }
                keys.append(try decrypt(ciphertext, pbe))
            case PKCS12OID.keyBag:
                keys.append(Array(value.encodedBytes))
            default:
                continue
            }
            if friendlyName == nil, parts.count > 2 { friendlyName = Self.friendlyName(in: parts[2]) }
        }
    }

    private static func friendlyName(in attributes: ASN1Node) -> String? {
        guard let list = try? DERNodes.children(attributes, .set, "the attributes") else { return nil }
        for attribute in list {
            guard let parts = try? DERNodes.children(attribute, .sequence, "an attribute"), parts.count == 2,
                  (try? DERNodes.oid(parts[0], "")) == PKCS12OID.friendlyName,
                  let values = try? DERNodes.children(parts[1], .set, "values"), let first = values.first,
                  let name = try? ASN1BMPString(derEncoded: first) else { continue }
            return PKCS12Crypto.string(bmp: Array(name.bytes))
        }
        return nil
    }
}
