import Foundation
import Networking
@testable import Signing
import TestSupport
import TestThreads
import Testing
import Transport

/// The encrypted storage in an S3 bucket, against a real moto_server on 127.0.0.1.
@Suite("Signing S3 storage", .serialized, .dedicatedThreads) struct S3StorageTests {
    typealias Support = StorageTestSupport

    static func storage(_ moto: MotoServer, prefix: String = "team/", readOnly: Bool = false) throws -> S3SigningStorage {
        let location = S3Location(endpoint: try #require(URL(string: moto.endpoint)), bucket: "signing", region: "us-east-1", pathStyle: true)
        let client = S3Client(location: location, credentials: AWSCredentials(accessKeyID: "testing", secretAccessKey: "testing"),
                              http: RetryingHTTPClient(client: SystemHTTPClient(), policy: RetryPolicy(attempts: 1)))
        return S3SigningStorage(client: client, prefix: prefix, readOnly: readOnly)
    }

    @Test(.enabled(if: MotoServer.isAvailable, "\(MotoServer.unavailableReason)"))
    func roundTripsAndReadOnlyNeverWrites() async throws {
        let moto = try MotoServer()
        try moto.createBucket("signing")
        let writer = try await EncryptedSigningStorage.open(try Self.storage(moto), passphrase: "team", parameters: Support.fast)
        try await Support.writeIdentity(writer)
        let raw = try Self.storage(moto)
        #expect(try await raw.list() == [Support.certPath, Support.keyPath, Support.profilePath, "slipway-signing.json"])
        #expect(SlipwayCipher.isSlipwayFile(try #require(try await raw.read(Support.keyPath))))

        let before = try await raw.list()
        let reader = try await EncryptedSigningStorage.open(try Self.storage(moto, readOnly: true), passphrase: "team")
        #expect(try await reader.read(Support.keyPath) == Support.key)
        await #expect(throws: SigningStorageError.readOnly(storage: "s3://signing/team/", operation: "delete '\(Support.keyPath)'")) {
            try await reader.delete(Support.keyPath)
        }
        #expect(try await raw.list() == before)
        #expect(try await raw.read(Support.keyPath).map(SlipwayCipher.isSlipwayFile) == true)

        try await writer.delete(Support.profilePath)
        #expect(try await writer.list() == [Support.certPath, Support.keyPath])

        let wrong = try await EncryptedSigningStorage.open(try Self.storage(moto, readOnly: true), passphrase: "not it")
        await #expect(throws: SigningStorageError.wrongPassphrase(file: "s3://signing/team/\(Support.certPath)")) {
            try await wrong.read(Support.certPath)
        }
    }

    @Test(.enabled(if: MotoServer.isAvailable, "\(MotoServer.unavailableReason)"))
    func aMissingBucketIsNamed() async throws {
        let moto = try MotoServer()
        do {
            _ = try await EncryptedSigningStorage.open(try Self.storage(moto), passphrase: "team")
            Issue.record("a missing bucket was opened")
        } catch let error as SigningStorageError {
            guard case let .unreachable(storage, detail) = error else { Issue.record("\(error)"); return }
            #expect(storage == "s3://signing/team/")
            #expect(detail.contains("NoSuchBucket"))
        }
    }
}
