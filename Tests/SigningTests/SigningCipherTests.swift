import Foundation
@testable import Signing
import Testing
import TestSupport
import TestThreads

/// Slipway's encrypted file format and scrypt.
@Suite("Slipway signing cipher", .dedicatedThreads) struct SigningCipherTests {
    /// Cheap parameters so the tests do not spend the default's ~0.2 s per key.
    static let fast = ScryptParameters(logN: 10, r: 8, p: 1)

    static func hex(_ text: String) -> [UInt8] {
        let digits = text.filter { !$0.isWhitespace }
        return stride(from: 0, to: digits.count, by: 2).map { offset in
            let start = digits.index(digits.startIndex, offsetBy: offset)
            return UInt8(digits[start..<digits.index(start, offsetBy: 2)], radix: 16) ?? 0
        }
    }

    /// RFC 7914 section 12's test vectors (the fourth, N = 2^20, needs 1 GiB and is left out).
    @Test func scryptMatchesRFC7914() throws {
        let vectors: [(String, String, ScryptParameters, String)] = [
            ("", "", ScryptParameters(logN: 4, r: 1, p: 1),
             "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906"),
            ("password", "NaCl", ScryptParameters(logN: 10, r: 8, p: 16),
             "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"),
            ("pleaseletmein", "SodiumChloride", ScryptParameters(logN: 14, r: 8, p: 1),
             "7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887"),
        ]
        for (password, salt, parameters, expected) in vectors {
            let derived = try Scrypt.derive(passphrase: Array(password.utf8), salt: Array(salt.utf8), parameters: parameters, length: 64)
            #expect(derived == Self.hex(expected), "scrypt(\(password), \(salt))")
        }
    }

    @Test func roundTripsAndUsesAFreshNoncePerFile() throws {
        let cipher = try SlipwayCipher(passphrase: "correct horse", parameters: Self.fast)
        let plaintext = Array("certificate bytes".utf8) + [0, 1, 2, 255]
        let first = try cipher.encrypt(plaintext)
        let second = try cipher.encrypt(plaintext)
        #expect(first != second)
        #expect(first.count == SlipwayCipher.headerLength + plaintext.count + 16)
        #expect(Array(first.prefix(8)) == Array("SLPWSIGN".utf8))
        #expect(Array(first[8..<15]) == [1, 1, 10, 0, 8, 0, 1])
        let reader = try SlipwayCipher(passphrase: "correct horse", parameters: Self.fast)
        #expect(try reader.decrypt(first, file: "s/a.cer") == plaintext)
        #expect(try reader.decrypt(try cipher.encrypt([]), file: "s/empty") == [])
    }

    @Test func wrongPassphraseIsNamedNeverGarbage() throws {
        let data = try SlipwayCipher(passphrase: "right", parameters: Self.fast).encrypt(Array("secret".utf8))
        let wrong = try SlipwayCipher(passphrase: "wrong", parameters: Self.fast)
        #expect(throws: SigningStorageError.wrongPassphrase(file: "store/certs/distribution/X.p12")) {
            try wrong.decrypt(data, file: "store/certs/distribution/X.p12")
        }
        #expect(SigningStorageError.wrongPassphrase(file: "store/x.p12").localizedDescription
            == "The passphrase does not decrypt 'store/x.p12'. Check the signing passphrase secret; every file of a storage is encrypted with the same passphrase.")
    }

    /// One flipped bit in each region of the file is refused, naming the file.
    @Test func everyByteRegionIsProtected() throws {
        let cipher = try SlipwayCipher(passphrase: "p", parameters: Self.fast)
        let data = try cipher.encrypt(Array(repeating: 0x41, count: 40))
        let regions: [(String, Int)] = [("magic", 0), ("version", 8), ("kdf", 9), ("logN", 10), ("r", 12), ("p", 14),
                                        ("salt", 20), ("nonce", 35), ("key check", 50), ("ciphertext", 70), ("tag", data.count - 1)]
        for (region, offset) in regions {
            var altered = data
            altered[offset] ^= 0x01
            #expect(throws: SigningStorageError.self, "\(region)") { try cipher.decrypt(altered, file: "f.p12") }
            do {
                _ = try cipher.decrypt(altered, file: "f.p12")
            } catch let error as SigningStorageError {
                #expect(error.localizedDescription.contains("'f.p12'"), "\(region): \(error.localizedDescription)")
            }
        }
        var tail = data
        tail[70] ^= 0x80
        #expect(throws: SigningStorageError.tampered(file: "f.p12", detail: "the AES-GCM tag does not match")) {
            try cipher.decrypt(tail, file: "f.p12")
        }
        #expect(throws: SigningStorageError.tampered(file: "f.p12", detail: "it is 60 bytes, shorter than a header and a tag")) {
            try cipher.decrypt(Array(data.prefix(60)), file: "f.p12")
        }
    }

    @Test func refusesHeadersItDoesNotKnow() throws {
        let cipher = try SlipwayCipher(passphrase: "p", parameters: Self.fast)
        var data = try cipher.encrypt([1, 2, 3])
        data[10] = 30
        #expect(throws: SigningStorageError.unsupportedParameters(
            file: "f", detail: "scrypt N=2^30, r=8, p=1; accepted: N from 2^10 to 2^22, r 1-32, p 1-16, at most 1 GiB")) {
            try cipher.decrypt(data, file: "f")
        }
        data[8] = 2
        #expect(throws: SigningStorageError.unreadableFormat(
            file: "f", detail: "format version 2 with KDF 1; this Slipway reads version 1 with scrypt (1)")) {
            try cipher.decrypt(data, file: "f")
        }
        #expect(throws: SigningStorageError.emptyPassphrase(storage: "s")) {
            try SlipwayCipher(passphrase: "", storage: "s")
        }
    }

    /// Python's hashlib.scrypt and cryptography's AESGCM read a Slipway file from its documented layout.
    @Test func anIndependentImplementationReadsSlipwayFiles() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-signing-py")
        let plaintext = Array("profile plist".utf8)
        let file = folder.path + "/a.bin"
        try Data(try SlipwayCipher(passphrase: "pässword", parameters: Self.fast).encrypt(plaintext)).write(to: URL(fileURLWithPath: file))
        let result = try PythonFormats.run(["slipway-decrypt", file, "pässword"], in: folder)
        #expect(result == plaintext)
    }
}
