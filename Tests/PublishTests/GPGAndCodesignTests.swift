import Basics
import Foundation
@testable import Publish
import Testing
import TestSupport
import TestThreads

/// gpg signatures made with a throwaway key in a temporary GNUPGHOME and checked with
/// `gpg --verify`; codesign's command line (codesign itself exists only on macOS).
@Suite(.dedicatedThreads) struct GPGAndCodesignTests {
    let fileSystem = LocalFileSystem()
    let streams = LocalFileStreams()

    /// A keyring in a temporary folder with one passphrase-protected ed25519 signing key.
    final class Keyring: @unchecked Sendable {
        let folder: TemporaryDirectory
        var home: String { folder.path + "/gnupg" }
        let passphrase = "gpg pass phrase"

        init() throws {
            folder = try TemporaryDirectory(prefix: "slipway-gpg")
            try FileManager.default.createDirectory(atPath: folder.path + "/gnupg", withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try Shell.run("gpg --batch --pinentry-mode loopback --passphrase '\(passphrase)' --quick-gen-key 'Release <release@example.com>' ed25519 sign never",
                          in: folder.path, environment: ["GNUPGHOME": home])
        }

        func armoredSecretKey() throws -> String {
            try Shell.output("gpg --batch --pinentry-mode loopback --passphrase '\(passphrase)' --armor --export-secret-keys release@example.com",
                             in: folder.path, environment: ["GNUPGHOME": home])
        }

        func verify(_ file: String) throws -> CommandResult {
            try Shell.result("gpg --batch --verify '\(file).asc' '\(file)'", in: folder.path, environment: ["GNUPGHOME": home])
        }

        deinit {
            _ = try? Shell.result("gpgconf --kill gpg-agent", in: folder.path, environment: ["GNUPGHOME": home])
        }
    }

    func signer(_ key: GPGKey, passphrase: String?, home: String) -> GPGSigner {
        GPGSigner(key: key, passphrase: passphrase, processRunner: LocalProcessRunner(),
                  environment: Environment.current.merging(["GNUPGHOME": home]), fileSystem: fileSystem, streams: streams)
    }

    @Test func aKeyInTheKeyringSignsAndGPGVerifies() async throws {
        let keyring = try Keyring()
        let file = try keyring.folder.write("app.zip", "zip bytes")
        let written = try await signer(.identifier("release@example.com"), passphrase: keyring.passphrase, home: keyring.home).sign([file])
        #expect(written == [file + ".asc"])
        #expect(try fileSystem.readText(file + ".asc").hasPrefix("-----BEGIN PGP SIGNATURE-----"))
        let verify = try keyring.verify(file)
        #expect(verify.status == 0, "\(verify.standardError)")
        #expect(verify.standardError.contains("Good signature from \"Release <release@example.com>\""))
    }

    @Test func anArmoredKeyIsImportedIntoAThrowawayKeyring() async throws {
        let keyring = try Keyring()
        let file = try keyring.folder.write("app.tar.gz", "tar bytes")
        let armored = try keyring.armoredSecretKey()
        let empty = try TemporaryDirectory(prefix: "slipway-gpg-empty")
        let written = try await signer(GPGKey(optionValue: armored), passphrase: keyring.passphrase, home: empty.path).sign([file])
        #expect(written == [file + ".asc"])
        #expect(try keyring.verify(file).status == 0)
        // The throwaway keyring is gone and the caller's keyring untouched.
        #expect(try fileSystem.contents(ofDirectory: empty.path) == [])
    }

    @Test func aWrongPassphraseIsReportedAndNoSignatureIsLeft() async throws {
        let keyring = try Keyring()
        let file = try keyring.folder.write("app.zip", "zip bytes")
        let before = try fileSystem.contents(ofDirectory: keyring.folder.path)
        await #expect(throws: PublishError.gpgWrongPassphrase(key: "release@example.com")) {
            _ = try await signer(.identifier("release@example.com"), passphrase: "not it", home: keyring.home).sign([file])
        }
        #expect(PublishError.gpgWrongPassphrase(key: "release@example.com").errorDescription
            == "the passphrase for the gpg key 'release@example.com' is wrong. Check the secret that holds it.")
        #expect(try fileSystem.contents(ofDirectory: keyring.folder.path) == before)
    }

    @Test func badPassphraseStatusLinesAreRecognised() {
        #expect(GPGSigner.isBadPassphrase(status: "[GNUPG:] BEGIN_SIGNING H8\n[GNUPG:] FAILURE sign 67108875\n"))
        #expect(GPGSigner.isBadPassphrase(status: "[GNUPG:] BAD_PASSPHRASE 3346A58264A0A2C3\n"))
        #expect(!GPGSigner.isBadPassphrase(status: "[GNUPG:] FAILURE sign 67108881\n"))
    }

    @Test func codesignCommandLine() {
        let full = CodesignCommand(identity: "Developer ID Application: Example (ABCDE12345)", keychain: "build.keychain",
                                   entitlements: "App.entitlements", options: ["runtime", "library"], timestamp: true, deep: true)
        #expect(full.arguments(for: "dist/App.app") == [
            "--sign", "Developer ID Application: Example (ABCDE12345)", "--force", "--keychain", "build.keychain",
            "--entitlements", "App.entitlements", "--options", "runtime,library", "--timestamp", "--deep", "--", "dist/App.app",
        ])
        let adHoc = CodesignCommand(identity: "-", options: [], timestamp: false)
        #expect(adHoc.arguments(for: "-tool") == ["--sign", "-", "--force", "--timestamp=none", "--", "-tool"])
        let spec = adHoc.spec(for: "bin/tool", environment: Environment(["PATH": "/usr/bin"]))
        #expect(spec.executable == "/usr/bin/codesign")
        #expect(spec.commandLine == "/usr/bin/codesign --sign - --force --timestamp=none -- bin/tool")
    }
}
