import Foundation
import Testing
import TestSupport
import TestThreads

/// A .p12 names its own key-derivation cost: one file is refused before any derivation when its
/// iterations together, or its bags, pass the budget (`PKCS12Limits`), and a real OpenSSL
/// export still passes. Run under `prlimit --cpu=5`, so a refusal that came only after the
/// derivations shows as a killed process, never as a slow test.
@Suite(.dedicatedThreads) struct PKCS12BudgetCommandTests {
    /// 60 shrouded keys and the MAC, each at 10,000,000 iterations (the per-derivation cap):
    /// 8.9 KB that took 6.5 CPU-minutes.
    static var sixtyEncryptedBags: [UInt8] { HostileP12.make(bags: 60, iterations: 10_000_000, macIterations: 10_000_000) }

    func slipway(_ arguments: [String], in folder: TemporaryDirectory) throws -> CommandResult {
        try CommandResult.run("/usr/bin/prlimit", ["--cpu=5", "--", Binaries.slipway] + arguments, in: folder.path,
                              environment: ["P12_PASSWORD": "hunter2", "SLIPWAY_SIGNING_PASSPHRASE": "storage passphrase", "NO_COLOR": "1",
                                            "GITHUB_ACTIONS": nil])
    }

    static let bombRefusal = "error: 'bomb.p12' is refused before any key derivation: its key derivations ask for "
        + "610000000 iterations in all (at least); Slipway derives at most 1000000 per file (OpenSSL's default export "
        + "needs 6144). Export the certificate and key again with the exporter's default iteration counts (for example "
        + "'openssl pkcs12 -export', which uses 2048).\n"

    @Test func pushCheckRefusesAFileOverTheIterationBudgetBeforeDeriving() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-p12-budget")
        try Data(Self.sixtyEncryptedBags).write(to: folder.url("bomb.p12"))
        let before = try Snapshot.of(folder.path)
        let checked = try slipway(["push", "check", "bomb.p12", "--password-env", "P12_PASSWORD"], in: folder)
        #expect(checked.status == 1, "killed by the CPU limit: \(checked.status)")
        #expect(checked.standardOutput == "")
        #expect(checked.standardError == Self.bombRefusal)
        #expect(try Snapshot.of(folder.path) == before)
    }

    @Test func signingPushAddRefusesItToo() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-p12-budget-add")
        try FileManager.default.createDirectory(atPath: folder.path + "/storage", withIntermediateDirectories: true)
        try Data(Self.sixtyEncryptedBags).write(to: folder.url("bomb.p12"))
        let before = try Snapshot.of(folder.path)
        let added = try slipway(["signing", "push", "add", "bomb.p12", "--password-env", "P12_PASSWORD", "--storage", "storage"],
                                in: folder)
        #expect(added.status == 1, "killed by the CPU limit: \(added.status) \(added.standardError)")
        #expect(added.standardError == Self.bombRefusal)
        #expect(try Snapshot.of(folder.path) == before)
    }

    @Test func tooManyBagsAreRefusedAtTheCap() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-p12-bags")
        try Data(HostileP12.make(bags: 65, iterations: 1, macIterations: 1)).write(to: folder.url("bags.p12"))
        let checked = try slipway(["push", "check", "bags.p12", "--password-env", "P12_PASSWORD"], in: folder)
        #expect(checked.status == 1)
        #expect(checked.standardError == "error: 'bags.p12' is refused before any key derivation: it has 65 bags (at least); "
            + "Slipway reads at most 64. Export the certificate and key again with the exporter's default iteration counts "
            + "(for example 'openssl pkcs12 -export', which uses 2048).\n")
    }

    @Test func aRealOpenSSLExportStillPasses() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-p12-openssl")
        let p12 = try PushCommandTests.pushP12(notAfter: Date().addingTimeInterval(30 * 86_400))
        // Slipway's own .p12 is read back by openssl and exported again with openssl's defaults.
        try Data(p12).write(to: folder.url("slipway.p12"))
        let pem = try CommandResult.run("/usr/bin/openssl", ["pkcs12", "-in", "slipway.p12", "-nodes", "-passin", "pass:hunter2",
                                                             "-out", "both.pem"], in: folder.path)
        #expect(pem.status == 0, "\(pem.standardError)")
        let export = try CommandResult.run("/usr/bin/openssl", ["pkcs12", "-export", "-in", "both.pem", "-out", "push.p12",
                                                                "-passout", "pass:hunter2"], in: folder.path)
        #expect(export.status == 0, "\(export.standardError)")
        let checked = try slipway(["push", "check", "push.p12", "--password-env", "P12_PASSWORD", "--topic", "com.example.app"],
                                  in: folder)
        #expect(checked.status == 0, "\(checked.standardError)")
        #expect(checked.standardOutput.hasPrefix("push.p12: "))
    }
}

/// A PFX written byte by byte: `bags` shrouded key bags in one plain data content, each with
/// PBES2 (PBKDF2-HMAC-SHA256, AES-256-CBC) at `iterations`, and an HMAC-SHA256 MAC at
/// `macIterations`. Its MAC and ciphertexts are garbage: a reader that derives anything fails
/// on them, one that counts first refuses it before.
enum HostileP12 {
    static func make(bags: Int, iterations: Int, macIterations: Int) -> [UInt8] {
        let salt = octets([UInt8](repeating: 7, count: 8))
        let pbes2 = sequence(oid([1, 2, 840, 113549, 1, 5, 13]) + sequence(
            sequence(oid([1, 2, 840, 113549, 1, 5, 12]) + sequence(salt + integer(iterations) + sequence(oid([1, 2, 840, 113549, 2, 9]) + null)))
                + sequence(oid([2, 16, 840, 1, 101, 3, 4, 1, 42]) + octets([UInt8](repeating: 1, count: 16)))))
        let bag = sequence(oid([1, 2, 840, 113549, 1, 12, 10, 1, 2])
            + explicit0(sequence(pbes2 + octets([UInt8](repeating: 9, count: 48)))))
        let safeContents = sequence(Array((0..<bags).map { _ in bag }.joined()))
        let authSafe = sequence(sequence(oid([1, 2, 840, 113549, 1, 7, 1]) + explicit0(octets(safeContents))))
        let mac = sequence(sequence(sequence(oid([2, 16, 840, 1, 101, 3, 4, 2, 1]) + null) + octets([UInt8](repeating: 0, count: 32)))
            + salt + integer(macIterations))
        return sequence(integer(3) + sequence(oid([1, 2, 840, 113549, 1, 7, 1]) + explicit0(octets(authSafe))) + mac)
    }

    static let null: [UInt8] = [0x05, 0x00]

    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var length: [UInt8] = []
        if content.count < 0x80 {
            length = [UInt8(content.count)]
        } else {
            var count = content.count
            var bytes: [UInt8] = []
            while count > 0 { bytes.insert(UInt8(count & 0xFF), at: 0); count >>= 8 }
            length = [0x80 | UInt8(bytes.count)] + bytes
        }
        return [tag] + length + content
    }

    static func sequence(_ content: [UInt8]) -> [UInt8] { tlv(0x30, content) }
    static func octets(_ content: [UInt8]) -> [UInt8] { tlv(0x04, content) }
    static func explicit0(_ content: [UInt8]) -> [UInt8] { tlv(0xA0, content) }

    static func integer(_ value: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = value
        repeat { bytes.insert(UInt8(rest & 0xFF), at: 0); rest >>= 8 } while rest > 0
        if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return tlv(0x02, bytes)
    }

    static func oid(_ arcs: [Int]) -> [UInt8] {
        var bytes = [UInt8(arcs[0] * 40 + arcs[1])]
        for arc in arcs.dropFirst(2) {
            var chunk = [UInt8(arc & 0x7F)]
            var rest = arc >> 7
            while rest > 0 { chunk.insert(UInt8(rest & 0x7F) | 0x80, at: 0); rest >>= 7 }
            bytes += chunk
        }
        return tlv(0x06, bytes)
    }
}
