import Foundation
@testable import Signing
import Testing
import TestSupport
import TestThreads

/// fastlane match's encryption, against an independent Python implementation both ways.
@Suite("match encryption", .dedicatedThreads) struct MatchCipherTests {
    static let plaintext = Array("-----BEGIN CERTIFICATE-----\nnot really\n".utf8) + (0..<200).map { UInt8($0) }

    @Test func slipwayReadsWhatPythonWritesInMatchV2() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-match-py")
        let input = folder.path + "/plain.bin"
        try Data(Self.plaintext).write(to: URL(fileURLWithPath: input))
        let encrypted = try PythonFormats.run(["match-encrypt", input, "match pass"], in: folder)
        let cipher = try MatchCipher(passphrase: "match pass")
        #expect(try cipher.decrypt(encrypted, file: "repo/certs/distribution/A.p12") == Self.plaintext)
        #expect(throws: SigningStorageError.matchDecryptionFailed(file: "repo/certs/distribution/A.p12", format: "v2")) {
            try MatchCipher(passphrase: "other").decrypt(encrypted, file: "repo/certs/distribution/A.p12")
        }
    }

    @Test func pythonReadsWhatSlipwayWritesInMatchV2() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-match-py")
        let encrypted = try MatchCipher(passphrase: "match pass").encrypt(Self.plaintext)
        let text = String(decoding: encrypted, as: UTF8.self)
        // Ruby's Base64.encode64: 60-character lines, each ending in a newline.
        #expect(text.hasSuffix("\n"))
        let lines = text.components(separatedBy: "\n")
        #expect(lines.count > 3 && lines.dropLast(2).allSatisfy { $0.count == 60 } && lines[lines.count - 2].count <= 60)
        let file = folder.path + "/enc.txt"
        try Data(encrypted).write(to: URL(fileURLWithPath: file))
        #expect(try PythonFormats.run(["match-decrypt", file, "match pass"], in: folder) == Self.plaintext)
    }

    @Test func slipwayReadsMatchV1() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-match-py")
        let input = folder.path + "/plain.bin"
        try Data(Self.plaintext).write(to: URL(fileURLWithPath: input))
        let encrypted = try PythonFormats.run(["match-v1-encrypt", input, "old pass"], in: folder)
        #expect(try MatchCipher(passphrase: "old pass").decrypt(encrypted, file: "f") == Self.plaintext)
    }

    @Test func fixedSaltGivesTheDocumentedLayout() throws {
        let cipher = try MatchCipher(passphrase: "p") { [1, 2, 3, 4, 5, 6, 7, 8] }
        let text = String(decoding: try cipher.encrypt([0x61]), as: UTF8.self).filter { !$0.isWhitespace }
        let raw = try #require(Data(base64Encoded: text))
        #expect(raw.count == 20 + 8 + 16 + 1)
        #expect(Array(raw.prefix(28)) == Array("match_encrypted_v2__".utf8) + [1, 2, 3, 4, 5, 6, 7, 8])
    }

    @Test func badInputIsNamed() throws {
        let cipher = try MatchCipher(passphrase: "p")
        #expect(throws: SigningStorageError.unreadableFormat(file: "f", detail: "it is not base64 text as fastlane match writes")) {
            try cipher.decrypt(Array("%%%".utf8), file: "f")
        }
        #expect(throws: SigningStorageError.unreadableFormat(
            file: "f", detail: "it starts with neither 'match_encrypted_v2__' nor 'Salted__' once base64-decoded")) {
            try cipher.decrypt(Array("aGVsbG8gd29ybGQ=\n".utf8), file: "f")
        }
        #expect(throws: SigningStorageError.emptyPassphrase(storage: "repo")) { try MatchCipher(passphrase: "", storage: "repo") }
        #expect(SigningStorageError.matchDecryptionFailed(file: "r/x.p12", format: "v2").localizedDescription
            == "The passphrase does not decrypt 'r/x.p12' (fastlane match v2), or the file was altered: match's format "
            + "cannot tell the two apart. Check the passphrase (match's MATCH_PASSWORD) first; if it opens the storage's "
            + "other files, restore this one from the storage's history.")
    }
}
