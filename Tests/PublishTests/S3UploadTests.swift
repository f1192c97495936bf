import Basics
import Foundation
import Networking
@testable import Publish
import Testing
import TestSupport
import TestThreads
@testable import Transport

/// S3 uploads against a real S3-compatible server (moto_server) on 127.0.0.1, and SigV4
/// against AWS's documented example.
@Suite(.serialized, .dedicatedThreads) struct S3UploadTests {
    let streams = LocalFileStreams()

    /// AWS's "GET Object" example from the Signature Version 4 documentation for S3.
    @Test func sigV4MatchesAWSsDocumentedExample() throws {
        let signer = SigV4Signer(credentials: AWSCredentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE",
                                                             secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
                                 region: "us-east-1")
        let request = HTTPRequest(method: .get, url: try #require(URL(string: "https://examplebucket.s3.amazonaws.com/test.txt")),
                                  headers: ["Range": "bytes=0-9"])
        let signed = signer.sign(request, payloadHash: SigV4Signer.emptyPayloadHash, date: Date(timeIntervalSince1970: 1_369_353_600))
        #expect(signed.headers["Authorization"] == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
            + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
        #expect(signed.headers["x-amz-date"] == "20130524T000000Z")
    }

    @Test func keysAndQueriesAreEncodedTheWayS3SignsThem() throws {
        let location = S3Location(endpoint: try #require(URL(string: "http://127.0.0.1:9000/")), bucket: "rel", region: "us-east-1", pathStyle: true)
        #expect(location.url(key: "v1.0/app name+x.tar.gz", query: "uploads").absoluteString
            == "http://127.0.0.1:9000/rel/v1.0/app%20name%2Bx.tar.gz?uploads")
        let virtual = S3Location(endpoint: S3Location.awsEndpoint(region: "eu-west-1"), bucket: "rel", region: "eu-west-1", pathStyle: false)
        #expect(virtual.url(key: "a/b").absoluteString == "https://rel.s3.eu-west-1.amazonaws.com/a/b")
        #expect(SigV4Signer.canonicalQuery(try #require(URL(string: "http://h/k?uploadId=a%2Fb&partNumber=2"))) == "partNumber=2&uploadId=a%2Fb")
        #expect(SigV4Signer.canonicalQuery(try #require(URL(string: "http://h/k?uploads"))) == "uploads=")
        #expect(SigV4Signer.hostHeader(try #require(URL(string: "http://127.0.0.1:9000/x"))) == "127.0.0.1:9000")
    }

    struct Fixture {
        let moto: MotoServer
        let folder: TemporaryDirectory
        let recorder = RecordingHTTPClient()
        let sleeps = SleepRecorder()

        init() throws {
            moto = try MotoServer()
            try moto.createBucket("releases")
            folder = try TemporaryDirectory(prefix: "slipway-s3")
        }

        func uploader(_ settings: S3UploadSettings, bucket: String = "releases") throws -> S3Uploader {
            let location = S3Location(endpoint: try #require(URL(string: moto.endpoint)), bucket: bucket, region: "us-east-1", pathStyle: true)
            let client = S3Client(location: location, credentials: AWSCredentials(accessKeyID: "testing", secretAccessKey: "testing"),
                                  http: RetryingHTTPClient(client: recorder, policy: sleeps.policy()))
            return S3Uploader(client: client, settings: settings, streams: LocalFileStreams())
        }

        /// The object's bytes, fetched with a signed GET (moto refuses anonymous reads of
        /// private objects).
        func object(_ key: String) async throws -> Data {
            let signer = SigV4Signer(credentials: AWSCredentials(accessKeyID: "testing", secretAccessKey: "testing"), region: "us-east-1")
            let request = HTTPRequest(method: .get, url: try #require(URL(string: "\(moto.endpoint)/releases/\(key)")))
            let response = try await SystemHTTPClient().send(signer.sign(request, payloadHash: SigV4Signer.emptyPayloadHash, date: Date()))
            return Data(try response.requireSuccess(url: request.url).body)
        }

        func file(_ name: String, size: Int, seed: UInt8 = 1) throws -> UploadFile {
            var bytes = [UInt8](repeating: 0, count: size)
            var value = UInt32(seed)
            for index in bytes.indices {
                value = value &* 1_664_525 &+ 1_013_904_223
                bytes[index] = UInt8(truncatingIfNeeded: value >> 24)
            }
            let path = folder.path + "/" + name
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return UploadFile(path: path, name: name, size: Int64(size))
        }
    }

    @Test(.enabled(if: MotoServer.isAvailable, "\(MotoServer.unavailableReason)"))
    func simpleUploadThenReuploadIsSkipped() async throws {
        let fixture = try Fixture()
        let file = try fixture.file("app.tar.gz", size: 100_000)
        let uploader = try fixture.uploader(S3UploadSettings(prefix: "v1.0"))
        let first = try await uploader.upload([file], progress: nil)
        #expect(first.map(\.action) == [.uploaded])
        #expect(first[0].url == fixture.moto.endpoint + "/releases/v1.0/app.tar.gz")
        #expect(try await fixture.object("v1.0/app.tar.gz") == Data(contentsOf: URL(fileURLWithPath: file.path)))
        let info = try #require(try await uploaderClient(fixture).head(key: "v1.0/app.tar.gz"))
        #expect(info.metadata["sha256"] == (try FileHasher(streams: streams).sha256(of: file.path)))
        #expect(info.size == 100_000)
        let before = fixture.recorder.requests.count
        let second = try await uploader.upload([file], progress: nil)
        #expect(second.map(\.action) == [.skipped])
        #expect(fixture.recorder.requests.dropFirst(before) == ["HEAD /releases/v1.0/app.tar.gz"])
    }

    func uploaderClient(_ fixture: Fixture) throws -> S3Client {
        let location = S3Location(endpoint: try #require(URL(string: fixture.moto.endpoint)), bucket: "releases", region: "us-east-1", pathStyle: true)
        return S3Client(location: location, credentials: AWSCredentials(accessKeyID: "testing", secretAccessKey: "testing"),
                        http: RetryingHTTPClient(client: SystemHTTPClient(), policy: RetryPolicy()))
    }

    @Test(.enabled(if: MotoServer.isAvailable, "\(MotoServer.unavailableReason)"))
    func largeFilesGoUpInPartsAndReuploadsAreSkipped() async throws {
        let fixture = try Fixture()
        let file = try fixture.file("big.bin", size: 12 * 1_048_576 + 12_345)
        let settings = S3UploadSettings(multipartThreshold: 6 << 20, partSize: 5 << 20, concurrency: 2)
        let progress = Reports()
        let outcomes = try await fixture.uploader(settings).upload([file]) { _, report in
            progress.append(report.completedBytes, report.totalBytes ?? -1)
        }
        #expect(outcomes.map(\.action) == [.uploaded])
        let requests = fixture.recorder.requests
        #expect(requests.first == "HEAD /releases/big.bin")
        #expect(requests.contains("POST /releases/big.bin?uploads"))
        #expect(requests.filter { $0.hasPrefix("PUT /releases/big.bin?partNumber=") }.count == 3)
        #expect(requests.last?.hasPrefix("POST /releases/big.bin?uploadId=") == true)
        #expect(try await fixture.object("big.bin") == Data(contentsOf: URL(fileURLWithPath: file.path)))
        #expect(progress.values.map(\.0).max() == file.size)
        let again = try await fixture.uploader(settings).upload([file], progress: nil)
        #expect(again.map(\.action) == [.skipped])
    }

    @Test(.enabled(if: MotoServer.isAvailable, "\(MotoServer.unavailableReason)"))
    func aDifferentObjectIsReplacedOnlyWhenAsked() async throws {
        let fixture = try Fixture()
        let original = try fixture.file("app.zip", size: 5_000, seed: 1)
        _ = try await fixture.uploader(S3UploadSettings()).upload([original], progress: nil)
        let changed = try fixture.file("app.zip", size: 5_000, seed: 2)
        let other = try fixture.file("other.zip", size: 10)
        let before = fixture.recorder.requests.count
        await #expect(throws: PublishError.destinationDiffers(path: "s3://releases/app.zip", option: "overwrite")) {
            _ = try await fixture.uploader(S3UploadSettings()).upload([other, changed], progress: nil)
        }
        // Only HEAD requests were made: other.zip, listed first, was not sent either.
        #expect(fixture.recorder.requests.dropFirst(before).allSatisfy { $0.hasPrefix("HEAD ") })
        let replaced = try await fixture.uploader(S3UploadSettings(overwrite: true)).upload([changed], progress: nil)
        #expect(replaced.map(\.action) == [.replaced])
        #expect(try await fixture.object("app.zip") == Data(contentsOf: URL(fileURLWithPath: changed.path)))
    }

    @Test(.enabled(if: MotoServer.isAvailable, "\(MotoServer.unavailableReason)"))
    func aMissingBucketIsRefusedWithS3sErrorCode() async throws {
        let fixture = try Fixture()
        let file = try fixture.file("app.zip", size: 10)
        do {
            _ = try await fixture.uploader(S3UploadSettings(), bucket: "no-such-bucket").upload([file], progress: nil)
            Issue.record("expected a failure")
        } catch {
            let url = fixture.moto.endpoint + "/no-such-bucket/app.zip"
            #expect(errorText(error).hasPrefix("upload of '\(file.path)' to '\(url)' was refused: HTTP 404 (NoSuchBucket: "), "\(errorText(error))")
        }
        #expect(fixture.sleeps.waits.isEmpty)
    }
}
