import Basics
import Foundation
import Signing
import Testing
import TestSupport
import TestThreads

/// Installing an identity and profiles: into a directory (files checked with openssl), and into
/// a keychain through the STAND-IN `security` (TestSupport's SecurityStandIn, given to the
/// installer by path), including the temporary keychain's cleanup.
@Suite("Signing install", .dedicatedThreads) struct InstallTests {
    static let keychainPassword = "kc-pass-Xy7Q"
    let folder: TemporaryDirectory
    let home: String
    let standIn: SecurityStandIn
    let identity: SigningIdentity
    let profile: ProvisioningProfile

    init() throws {
        folder = try TemporaryDirectory(prefix: "slipway-install")
        home = folder.path + "/home"
        try FileManager.default.createDirectory(atPath: folder.path + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.path + "/tmp", withIntermediateDirectories: true)
        standIn = try SecurityStandIn(directory: folder.path + "/bin", home: home)
        let authority = try TestCertificateAuthority()
        let (certificate, key) = try CertificateFixtures.identity(authority: authority)
        identity = try SigningIdentity(certificate: certificate, key: key)
        var builder = ProvisioningProfileBuilder()
        builder.name = "match AppStore com.example.app"
        builder.certificates = [certificate.der]
        profile = try ProvisioningProfile(bytes: try builder.build(signedBy: authority), file: "profile.mobileprovision")
    }

    var login: String { home + "/Library/Keychains/login.keychain-db" }
    var ciKeychain: String { folder.path + "/keychains/ci.keychain" }

    func installer(_ target: KeychainTarget) -> KeychainSigningInstaller {
        KeychainSigningInstaller(keychain: target, runner: LocalProcessRunner(), homeDirectory: home,
                                 security: standIn.executable, environment: standIn.environment(),
                                 temporaryDirectory: folder.path + "/tmp")
    }

    func remove() async throws -> TemporaryKeychain.Removal {
        try await TemporaryKeychain.remove(path: ciKeychain, runner: LocalProcessRunner(), security: standIn.executable,
                                           environment: standIn.environment(), fileSystem: LocalFileSystem())
    }

    static func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    // MARK: - Directory

    @Test func directoryInstallWritesPrivateFilesThatOpenSSLReads() async throws {
        let directory = folder.path + "/signing"
        let password = "p12-secret-9"
        let installer = DirectorySigningInstaller(directory: directory, p12Password: password)
        let sha1 = identity.certificate.sha1Fingerprint
        for _ in 0..<2 { // the second run replaces every file
            let report = try await installer.install(identity: identity, profiles: [profile])
            #expect(report.identity == .files(pkcs12: "\(directory)/\(sha1).p12", certificate: "\(directory)/\(sha1).cer"))
            #expect(report.profiles == [.init(name: profile.name, uuid: profile.uuid, bundleID: "com.example.app",
                                              paths: ["\(directory)/Provisioning Profiles/\(profile.uuid).mobileprovision"])])
            #expect(report.certificateName == "Apple Distribution: Example Ltd (AB12CD34EF)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            == ["\(sha1).cer", "\(sha1).p12", "Provisioning Profiles"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/Provisioning Profiles")
            == ["\(profile.uuid).mobileprovision"])
        #expect(try Self.mode(directory) == 0o700)
        #expect(try Self.mode(directory + "/Provisioning Profiles") == 0o700)
        for file in ["\(sha1).p12", "\(sha1).cer", "Provisioning Profiles/\(profile.uuid).mobileprovision"] {
            #expect(try Self.mode(directory + "/" + file) == 0o600, "\(file)")
        }
        #expect(try CertificateFixtures.read("\(directory)/\(sha1).cer") == identity.certificate.der)
        #expect(try CertificateFixtures.read("\(directory)/Provisioning Profiles/\(profile.uuid).mobileprovision") == profile.data)
        let opened = try CommandResult.run("/usr/bin/openssl", ["pkcs12", "-info", "-nokeys", "-in", "\(directory)/\(sha1).p12",
                                                                "-passin", "pass:" + password, "-out", folder.path + "/cert.pem"])
        #expect(opened.status == 0, "\(opened.standardError)")
        let fingerprint = try CertificateFixtures.openssl(["x509", "-in", "cert.pem", "-noout", "-fingerprint", "-sha1"], in: folder)
        #expect(fingerprint.replacingOccurrences(of: ":", with: "").contains("=" + sha1))
        let wrong = try CommandResult.run("/usr/bin/openssl", ["pkcs12", "-info", "-nokeys", "-in", "\(directory)/\(sha1).p12",
                                                               "-passin", "pass:wrong", "-out", "/dev/null"])
        #expect(wrong.status != 0)
    }

    @Test func aProfileWhoseUUIDIsNotAFileNameIsRefused() async throws {
        var builder = ProvisioningProfileBuilder()
        builder.uuid = "../../escape"
        let bad = try ProvisioningProfile(bytes: try builder.build(signedBy: try TestCertificateAuthority()), file: "bad")
        let directory = folder.path + "/signing"
        let error = await #expect(throws: SigningInstallError.self) {
            _ = try await DirectorySigningInstaller(directory: directory).install(identity: identity, profiles: [bad])
        }
        #expect(error?.localizedDescription == "The provisioning profile 'Slipway Test Profile' has the UUID '../../escape', which "
            + "is not a safe file name (only letters, digits and dashes are). Download the profile again from the Apple Developer portal.")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/escape.mobileprovision"))
    }

    @Test func aFailedWriteLeavesNoPartialFile() async throws {
        let directory = folder.path + "/signing"
        let sha1 = identity.certificate.sha1Fingerprint
        // A folder where the certificate file should go: the rename over it fails.
        try FileManager.default.createDirectory(atPath: "\(directory)/\(sha1).cer/inside", withIntermediateDirectories: true)
        let error = await #expect(throws: SigningInstallError.self) {
            _ = try await DirectorySigningInstaller(directory: directory).install(identity: identity, profiles: [profile])
        }
        #expect(error?.localizedDescription.hasPrefix("Could not write '\(directory)/\(sha1).cer': ") == true, "\(String(describing: error))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["\(sha1).cer", "\(sha1).p12"])
    }

    // MARK: - Keychain

    @Test func temporaryKeychainInstallThenCleanupRestoresSearchListAndDefault() async throws {
        let report = try await installer(.temporary(path: ciKeychain, password: Self.keychainPassword))
            .install(identity: identity, profiles: [profile])
        let sha1 = identity.certificate.sha1Fingerprint
        #expect(report.createdKeychain == ciKeychain)
        #expect(report.identity == .keychain(path: ciKeychain))
        #expect(report.notes == [])
        let passwords = (try standIn.state()["calls"] as? [[String]] ?? []).flatMap { call in
            zip(call, call.dropFirst()).filter { ["-p", "-P", "-k"].contains($0.0) && $0.1 != ciKeychain }.map(\.1)
        }
        #expect(Set(passwords).count == 2 && passwords.contains(Self.keychainPassword), "\(passwords)")
        for password in passwords { #expect(!"\(report)".contains(password)) }
        #expect(report.profiles.first?.paths == [
            home + "/Library/MobileDevice/Provisioning Profiles/\(profile.uuid).mobileprovision",
            home + "/Library/Developer/Xcode/UserData/Provisioning Profiles/\(profile.uuid).mobileprovision",
        ])
        for path in report.profiles.first?.paths ?? [] { #expect(try CertificateFixtures.read(path) == profile.data) }

        var state = try standIn.state()
        #expect(state["search_list"] as? [String] == [ciKeychain + "-db", login])
        #expect(state["default"] as? String == ciKeychain + "-db")
        let keychains = state["keychains"] as? [String: [String: Any]] ?? [:]
        let created = try #require(keychains[ciKeychain + "-db"])
        #expect(created["locked"] as? Bool == false)
        let settings = created["settings"] as? [String: Any] ?? [:]
        #expect(settings["timeout"] as? Int == 21600)
        #expect(settings["lock-on-sleep"] as? Bool == true && settings["use-timeout"] as? Bool == true)
        let items = created["items"] as? [[String: Any]] ?? []
        #expect(items.count == 1)
        #expect(items.first?["sha1"] as? String == sha1)
        #expect(items.first?["file_mode"] as? String == "600")
        #expect(items.first?["trusted"] as? [String] == KeychainSigningInstaller.trustedApplications)
        #expect(items.first?["partition"] as? [String] == ["apple-tool:", "apple:", "codesign:"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/tmp") == [], "the one-time .p12 is removed")
        let saved = try #require(FileManager.default.contents(atPath: TemporaryKeychain.statePath(for: ciKeychain)))
        #expect(try JSONDecoder().decode(TemporaryKeychain.State.self, from: saved)
            == .init(keychain: ciKeychain, previousSearchList: [login], previousDefault: login))

        let removal = try await remove()
        #expect(removal == .init(deletedKeychain: true, searchList: [login], restoredDefault: login, usedStateFile: true))
        state = try standIn.state()
        #expect(state["search_list"] as? [String] == [login])
        #expect(state["default"] as? String == login)
        #expect(!FileManager.default.fileExists(atPath: ciKeychain + "-db"))
        #expect(!FileManager.default.fileExists(atPath: TemporaryKeychain.statePath(for: ciKeychain)))

        let again = try await remove()
        var expected = TemporaryKeychain.Removal(deletedKeychain: false, searchList: [login], restoredDefault: nil, usedStateFile: false)
        expected.wasInSearchList = false
        #expect(again == expected)
        #expect(try standIn.state()["search_list"] as? [String] == [login])
    }

    @Test func aSecondInstallReusesTheKeychainAndKeepsTheFirstState() async throws {
        let target = KeychainTarget.temporary(path: ciKeychain, password: Self.keychainPassword)
        _ = try await installer(target).install(identity: identity, profiles: [profile])
        let second = try await installer(target).install(identity: identity, profiles: [profile])
        #expect(second.createdKeychain == nil)
        #expect(second.notes == ["the identity \(identity.certificate.sha1Fingerprint) was already in '\(ciKeychain)'"])
        let calls = (try standIn.state()["calls"] as? [[String]] ?? []).map { $0.first ?? "" }
        #expect(calls.filter { $0 == "create-keychain" }.count == 1)
        let removal = try await remove()
        #expect(removal.searchList == [login] && removal.restoredDefault == login)
    }

    @Test func aKeychainSlipwayDidNotCreateIsNeitherReusedNorTouched() async throws {
        let error = await #expect(throws: SigningInstallError.self) {
            _ = try await installer(.temporary(path: login, password: Self.keychainPassword)).install(identity: identity, profiles: [])
        }
        #expect(error == .foreignKeychain(path: login, stateFile: login + ".slipway-state.json"))
        #expect(error?.localizedDescription == "A keychain already exists at '\(login)' and Slipway did not create it (there is no "
            + "'\(login).slipway-state.json'). Choose another path for the temporary keychain, or install into this one as an "
            + "existing keychain.")
        #expect(try standIn.state()["calls"] as? [[String]] == [])
    }

    @Test func aFailingImportNamesTheSubcommandAndNoPassword() async throws {
        try standIn.injectFailure("import")
        let error = await #expect(throws: SigningInstallError.self) {
            _ = try await installer(.temporary(path: ciKeychain, password: Self.keychainPassword))
                .install(identity: identity, profiles: [profile])
        }
        let message = error?.localizedDescription ?? ""
        let calls = try standIn.state()["calls"] as? [[String]] ?? []
        let importCall = try #require(calls.first { $0.first == "import" })
        let oneTimePassword = try #require(importCall.firstIndex(of: "-P").map { importCall[$0 + 1] })
        #expect(oneTimePassword.count == 32)
        #expect(message.hasPrefix("'security import' failed with exit code 1: security: import refused: "), "\(message)")
        #expect(message.contains("-P *** -f pkcs12"), "\(message)")
        #expect(message.contains("(ran: security import \(folder.path)/tmp/slipway-identity-"), "\(message)")
        #expect(message.hasSuffix("Check that the keychain exists and is unlocked, and that the identity is a valid PKCS#12."))
        #expect(!message.contains(oneTimePassword) && !message.contains(Self.keychainPassword))
        #expect(!"\(String(describing: error))".contains(oneTimePassword))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/tmp") == [])
        _ = try await remove()
    }

    @Test func aWrongKeychainPasswordNamesUnlockKeychainWithoutThePassword() async throws {
        let error = await #expect(throws: SigningInstallError.self) {
            _ = try await installer(.existing(path: login, password: "not-the-login-password"))
                .install(identity: identity, profiles: [])
        }
        #expect(error?.localizedDescription == "'security unlock-keychain' failed with exit code 51: security: SecKeychainUnlock "
            + "\(login): The user name or passphrase you entered is not correct. (ran: security unlock-keychain -p *** \(login)). "
            + "Check the keychain password.")
    }

    @Test func anExistingKeychainWithoutPasswordSkipsUnlockAndPartitionList() async throws {
        let report = try await installer(.existing(path: login, password: nil)).install(identity: identity, profiles: [profile])
        #expect(report.createdKeychain == nil)
        #expect(report.notes == ["the key's partition list was not set (no keychain password was given): codesign may ask for "
            + "access to the key the first time; give the keychain password to avoid the prompt"])
        let calls = (try standIn.state()["calls"] as? [[String]] ?? []).map { $0.first ?? "" }
        #expect(calls == ["import"])
        #expect(installer(.existing(path: login, password: nil)).secrets == [])

        let unlocked = try await installer(.existing(path: login, password: "login-password")).install(identity: identity, profiles: [])
        #expect(unlocked.notes == ["the identity \(identity.certificate.sha1Fingerprint) was already in '\(login)'"])
        let after = (try standIn.state()["calls"] as? [[String]] ?? []).map { $0.first ?? "" }
        #expect(after == ["import", "unlock-keychain", "import", "set-key-partition-list"])
        #expect(!"\(unlocked)".contains("login-password"))
        #expect(installer(.temporary(path: ciKeychain, password: Self.keychainPassword)).secrets == [Self.keychainPassword])
    }
}
