import Basics
import Foundation
@testable import Publish
import Testing
import TestSupport
import TestThreads

/// Keys and signatures checked against the real `signify-openbsd` and `minisign`.
@Suite(.dedicatedThreads) struct SignifyTests {
    let fileSystem = LocalFileSystem()
    let streams = LocalFileStreams()

    /// Vectors from Python's `bcrypt` package (`bcrypt.kdf(password, salt, length, rounds)`).
    @Test func bcryptPBKDFMatchesPythonsBcryptPackage() {
        let vectors: [(String, [UInt8], Int, Int, String)] = [
            ("slipway passphrase", Array(0..<16), 42, 64,
             "08acc96ed175aa15382919fa05591d48b45d9242a522d7fc09551b7ad22a45bbc067e60700c5eeeed865444228edc0d3de87372bbe31bfbb59addda6623aee0e"),
            ("password", Array("salt".utf8), 4, 32, "5bbf0cc293587f1c3635555c27796598d47e579071bf427e9d8fbe842aba34d9"),
            ("\u{0}\u{0}\u{0}", Array("NaCl-salt".utf8), 2, 7, "19e27ac9a036f1"),
        ]
        for (password, salt, rounds, length, expected) in vectors {
            let key = BcryptPBKDF.deriveKey(passphrase: Array(password.utf8), salt: salt, rounds: rounds, length: length)
            #expect(key?.hexString == expected)
        }
        #expect(BcryptPBKDF.deriveKey(passphrase: [1], salt: [1], rounds: 0, length: 8) == nil)
    }

    func writeKeys(_ folder: TemporaryDirectory, passphrase: String?) throws -> (pub: String, sec: String) {
        let (publicKey, secretKey) = try SignifyKeyGenerator().generate(name: "release", passphrase: passphrase.map { Array($0.utf8) })
        let pub = try folder.write("release.pub", publicKey.text)
        let sec = try folder.write("release.sec", secretKey.text)
        return (pub, sec)
    }

    func signer(_ secretKeyPath: String, passphrase: String?, minisign: Bool = false) throws -> Ed25519Signer {
        let secret = try SignifySecretKey(text: try fileSystem.readText(secretKeyPath), source: .file("release.sec"))
        let pair = try secret.decrypt(passphrase: passphrase.map { Array($0.utf8) }, source: .file("release.sec"))
        return Ed25519Signer(pair: pair, options: Ed25519SignerOptions(comment: "verify with release.pub", minisign: minisign),
                             fileSystem: fileSystem, streams: streams)
    }

    @Test(arguments: [nil, "correct horse"])
    func ourSignaturesVerifyWithSignifyAndMinisign(passphrase: String?) async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-signify")
        let keys = try writeKeys(folder, passphrase: passphrase)
        let file = try folder.write("app.tar.gz", String(repeating: "payload ", count: 10_000))
        let empty = try folder.write("empty.txt", "")
        let written = try await signer(keys.sec, passphrase: passphrase, minisign: true).sign([file, empty])
        #expect(written == [file + ".sig", file + ".minisig", empty + ".sig", empty + ".minisig"])
        let verified = try Shell.output("signify-openbsd -V -p release.pub -m app.tar.gz -x app.tar.gz.sig && signify-openbsd -V -p release.pub -m empty.txt", in: folder.path)
        #expect(verified == "Signature Verified\nSignature Verified\n")
        let minisign = try Shell.output("minisign -V -p release.pub -m app.tar.gz", in: folder.path)
        #expect(minisign.contains("Signature and comment signature verified"), "\(minisign)")
        #expect(minisign.contains("Trusted comment: file:app.tar.gz"))
        #expect(try fileSystem.readText(file + ".sig").hasPrefix("untrusted comment: verify with release.pub\n"))
        // A changed file no longer verifies, with either tool or ours.
        try folder.write("app.tar.gz", "tampered")
        #expect(try Shell.result("signify-openbsd -V -p release.pub -m app.tar.gz", in: folder.path).status != 0)
        let publicKey = try SignifyPublicKey(text: try fileSystem.readText(keys.pub), source: .file("release.pub"))
        #expect(throws: PublishError.signatureMismatch(file: file, signature: file + ".sig")) {
            try SignifyVerifier(streams: streams).verify(file: file, signatureText: try fileSystem.readText(file + ".sig"),
                                                       signaturePath: file + ".sig", publicKey: publicKey)
        }
    }

    @Test func keysMadeBySignifyWithoutAPassphraseSignWithOurCode() async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-signify-n")
        try Shell.run("signify-openbsd -G -n -p release.pub -s release.sec", in: folder.path)
        let file = try folder.write("notes.txt", "release notes\n")
        _ = try await signer(folder.path + "/release.sec", passphrase: nil).sign([file])
        #expect(try Shell.output("signify-openbsd -V -p release.pub -m notes.txt", in: folder.path) == "Signature Verified\n")
    }

    @Test func protectedKeysAreInterchangeableWithSignify() async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-signify-pw")
        let file = try folder.write("notes.txt", "release notes\n")
        // signify makes a protected key; our code decrypts it and signs.
        try Terminal.answering("hunter22", "signify-openbsd", "-G", "-p", "theirs.pub", "-s", "theirs.sec", in: folder.path)
        let theirs = try SignifySecretKey(text: try fileSystem.readText(folder.path + "/theirs.sec"), source: .file("theirs.sec"))
        #expect(theirs.rounds == 42)
        let pair = try theirs.decrypt(passphrase: Array("hunter22".utf8), source: .file("theirs.sec"))
        _ = try await Ed25519Signer(pair: pair, options: Ed25519SignerOptions(comment: "verify with theirs.pub"),
                                    fileSystem: fileSystem, streams: streams).sign([file])
        #expect(try Shell.output("signify-openbsd -V -p theirs.pub -m notes.txt", in: folder.path) == "Signature Verified\n")
        // Our protected key is decrypted by signify with the same passphrase.
        let keys = try writeKeys(folder, passphrase: "hunter22")
        try Terminal.answering("hunter22", "signify-openbsd", "-S", "-s", keys.sec, "-m", "notes.txt", "-x", "ours.sig", in: folder.path)
        let publicKey = try SignifyPublicKey(text: try fileSystem.readText(keys.pub), source: .file("release.pub"))
        try SignifyVerifier(streams: streams).verify(file: file, signatureText: try fileSystem.readText(folder.path + "/ours.sig"),
                                                   signaturePath: "ours.sig", publicKey: publicKey)
    }

    @Test func aWrongPassphraseIsReportedAndNothingIsWritten() async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-signify-wrong")
        let keys = try writeKeys(folder, passphrase: "right one")
        let before = try fileSystem.contents(ofDirectory: folder.path)
        #expect(throws: PublishError.wrongPassphrase(source: .file("release.sec"))) { try signer(keys.sec, passphrase: "wrong one") }
        #expect(PublishError.wrongPassphrase(source: .file("release.sec")).errorDescription
            == "the passphrase for 'release.sec' is wrong. Check the secret that holds it.")
        #expect(throws: PublishError.passphraseRequired(source: .file("release.sec"))) { try signer(keys.sec, passphrase: nil) }
        #expect(try fileSystem.contents(ofDirectory: folder.path) == before)
    }

    @Test func malformedKeysNameTheFileAndTheProblem() throws {
        let good = try SignifyKeyGenerator().generate(name: "k", passphrase: nil).secretKey.text
        let lines = good.split(separator: "\n").map(String.init)
        let cases: [(String, String)] = [
            ("not a key\n", "it does not start with 'untrusted comment: '"),
            ("untrusted comment: x\n", "the line after the comment is missing"),
            ("untrusted comment: x\n!!!not base64\n", "its second line is not valid base64"),
            ("untrusted comment: x\n" + Data([UInt8](Data(base64Encoded: lines[1]) ?? Data()).prefix(98)).base64EncodedString() + "\n",
             "it holds 98 bytes where 104 were expected"),
            ("untrusted comment: x\n" + Data(Array(("Xx" + String(repeating: "a", count: 102)).utf8)).base64EncodedString() + "\n",
             "its algorithm is 'Xx', not 'Ed' (Ed25519)"),
            ("untrusted comment: x\n" + Data(Array(("EdXX" + String(repeating: "a", count: 100)).utf8)).base64EncodedString() + "\n",
             "its key derivation is 'XX', not 'BK' (bcrypt_pbkdf)"),
        ]
        for (text, problem) in cases {
            #expect(throws: PublishError.malformedKey(source: .file("bad.sec"), problem: problem)) {
                _ = try SignifySecretKey(text: text, source: .file("bad.sec"))
            }
        }
        #expect(PublishError.malformedKey(source: .file("bad.sec"), problem: "its second line is not valid base64").errorDescription
            == "the key 'bad.sec' is malformed: its second line is not valid base64. Give a signify key file made by 'slipway keys generate' or 'signify -G'.")
        // A public key where a secret key belongs is the wrong length.
        let publicText = try SignifyKeyGenerator().generate(name: "k", passphrase: nil).publicKey.text
        #expect(throws: PublishError.malformedKey(source: .inline(option: "key"), problem: "it holds 42 bytes where 104 were expected")) {
            _ = try SignifySecretKey(text: publicText, source: .inline(option: "key"))
        }
    }
}

/// Drives programs that read a passphrase from the terminal (signify does), through a pty.
enum Terminal {
    static let script = """
        import os, pty, sys
        answer = os.environ["ANSWER"].encode() + b"\\n"
        pid, fd = pty.fork()
        if pid == 0:
            os.execvp(sys.argv[1], sys.argv[1:])
        seen = b""
        while True:
            try:
                data = os.read(fd, 1024)
            except OSError:
                break
            if not data:
                break
            seen += data
            if seen.rstrip().endswith(b":"):
                os.write(fd, answer)
                seen = b""
        _, status = os.waitpid(pid, 0)
        sys.exit(os.waitstatus_to_exitcode(status))
        """

    /// Runs `command` answering every prompt with `answer`; throws when it fails.
    static func answering(_ answer: String, _ command: String..., in directory: String) throws {
        let result = try CommandResult.run("/usr/bin/env", ["python3", "-c", script] + command, in: directory,
                                           environment: ["ANSWER": answer])
        guard result.status == 0 else { throw Shell.Failed(description: "\(command) failed: \(result.standardOutput)\(result.standardError)") }
    }
}
