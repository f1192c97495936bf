import Foundation
import Testing
import TestSupport
import TestThreads

/// `slipway keys generate` through the built binary; the keys are checked with signify-openbsd.
@Suite(.dedicatedThreads) struct KeysCommandTests {
    @Test func generatedKeysWorkWithSignify() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-keys")
        let made = try CommandResult.run(Binaries.slipway, ["keys", "generate", "--output", "keys", "--name", "ci", "--no-passphrase"],
                                         in: folder.path)
        #expect(made.status == 0, "\(made.standardError)")
        #expect(made.standardOutput == "wrote \(folder.path)/keys/ci.pub and \(folder.path)/keys/ci.sec (not encrypted)\n")
        let mode = try FileManager.default.attributesOfItem(atPath: folder.path + "/keys/ci.sec")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        try folder.write("notes.txt", "notes\n")
        let signed = try CommandResult.run("/bin/sh", ["-c", "signify-openbsd -S -s keys/ci.sec -m notes.txt && signify-openbsd -V -p keys/ci.pub -m notes.txt"],
                                           in: folder.path)
        #expect(signed.standardOutput == "Signature Verified\n", "\(signed.standardError)")
    }

    @Test func thePassphraseComesFromTheEnvironmentAndKeysAreNotReplaced() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-keys-pw")
        let missing = try CommandResult.run(Binaries.slipway, ["keys", "generate"], in: folder.path,
                                            environment: ["SLIPWAY_KEY_PASSPHRASE": nil])
        #expect(missing.status == 2)
        #expect(missing.standardError == "error: the environment variable SLIPWAY_KEY_PASSPHRASE holds no passphrase. Set it, or pass --no-passphrase for an unencrypted key.\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        let made = try CommandResult.run(Binaries.slipway, ["keys", "generate", "--passphrase-env", "MY_PASS"], in: folder.path,
                                         environment: ["MY_PASS": "correct horse"])
        #expect(made.status == 0)
        let secret = try String(contentsOfFile: folder.path + "/release.sec", encoding: .utf8)
        #expect(secret.hasPrefix("untrusted comment: release secret key\n"))
        #expect(!secret.contains("correct horse"))
        let again = try CommandResult.run(Binaries.slipway, ["keys", "generate", "--passphrase-env", "MY_PASS"], in: folder.path,
                                          environment: ["MY_PASS": "correct horse"])
        #expect(again.status == 1)
        #expect(again.standardError == "error: '\(folder.path)/release.pub' already exists. Choose another name, or pass --force to replace it (the old key cannot be recovered).\n")
        #expect(try String(contentsOfFile: folder.path + "/release.sec", encoding: .utf8) == secret)
    }
}
