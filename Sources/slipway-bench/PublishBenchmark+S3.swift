import Basics
import Foundation
import Networking
import Publish
import Transport

#if canImport(Glibc)
import Glibc
private let streamSocketType = Int32(SOCK_STREAM.rawValue)
#elseif canImport(Darwin)
import Darwin
private let streamSocketType = SOCK_STREAM
#endif

extension PublishBenchmark {
    /// S3 upload of the artifact to moto_server on loopback: S3Uploader (defaults: parts of
    /// 16 MiB above 64 MiB, 4 at a time) against `aws s3 cp` (its defaults: 8 MiB parts, 10
    /// threads). Each run writes a new key and deletes it afterwards, so neither tool can skip
    /// the upload and moto's memory stays flat.
    static func s3Upload(artifact: String, runs: Int, settings: S3UploadSettings) async throws {
        guard ExecutableLocator.find("moto_server", environment: Environment.current.variables) != nil else {
            print("S3 upload: skipped, moto_server is not installed (python3 -m pip install 'moto[server]')")
            return
        }
        let server = try MotoProcess()
        defer { server.stop() }
        let endpoint = "http://127.0.0.1:\(server.port)"
        let credentials = AWSCredentials(accessKeyID: "bench", secretAccessKey: "bench")
        let signer = SigV4Signer(credentials: credentials, region: "us-east-1")
        let http = SystemHTTPClient(defaultTimeout: .seconds(300))
        func signed(_ method: HTTPMethod, _ path: String) async throws {
            guard let url = URL(string: endpoint + path) else { throw BenchError("bad URL \(path)") }
            let request = signer.sign(HTTPRequest(method: method, url: url), payloadHash: SigV4Signer.emptyPayloadHash, date: Date())
            _ = try await http.send(request).requireSuccess(url: url)
        }
        try await signed(.put, "/bench")
        guard let endpointURL = URL(string: endpoint) else { throw BenchError("bad endpoint") }
        let client = S3Client(location: S3Location(endpoint: endpointURL, bucket: "bench", region: "us-east-1", pathStyle: true),
                              credentials: credentials, http: RetryingHTTPClient(client: http, policy: RetryPolicy()))
        let uploader = S3Uploader(client: client, settings: settings, streams: LocalFileStreams())
        let size = Int64((try FileManager.default.attributesOfItem(atPath: artifact)[.size] as? Int) ?? 0)
        let environment = ["AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench", "AWS_DEFAULT_REGION": "us-east-1"]
        var run = 0
        var ourCPU: [Double] = []
        let (aws, ours) = try await interleavedMedians(runs: runs, baseline: {
            run += 1
            try await runAWS(["s3", "cp", "--only-show-errors", "--endpoint-url", endpoint, artifact, "s3://bench/aws-\(run).bin"],
                             environment: environment)
            try await signed(.delete, "/bench/aws-\(run).bin")
        }, candidate: {
            let file = UploadFile(path: artifact, name: "ours-\(run).bin", size: size)
            let before = cpuSeconds()
            _ = try await uploader.upload([file], progress: nil)
            ourCPU.append(cpuSeconds() - before)
            try await signed(.delete, "/bench/ours-\(run).bin")
        })
        Bench.report("aws s3 cp to moto_server (baseline)", Bench.ms(aws), target: "reference")
        Bench.report("S3Uploader to moto_server (\(settings.partSize >> 20) MiB parts × \(settings.concurrency))", Bench.ms(ours),
                     target: "≤ 1.5× baseline")
        Bench.report("  ratio", String(format: "%.2f×", ours / aws), target: "≤ 1.50")
        Bench.report("  CPU of S3Uploader per upload (median)", String(format: "%.2f s", ourCPU.sorted()[ourCPU.count / 2]), target: "info")
    }

    /// User + system CPU seconds this process has used so far.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    static func runAWS(_ arguments: [String], environment: [String: String]) async throws {
        let result = try await LocalProcessRunner().run(ProcessSpec(executable: "aws", arguments: arguments,
                                                                    environment: Environment.current.merging(environment).variables))
        guard result.status.isSuccess else { throw BenchError("aws \(arguments.joined(separator: " ")) failed: \(result.errorText)") }
    }
}

/// moto_server on a free loopback port, for the benchmark.
final class MotoProcess {
    let port: Int
    private let process: Process

    init() throws {
        port = Int.random(in: 20_000...60_000)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["moto_server", "-H", "127.0.0.1", "-p", String(port)]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if Self.answers(port: port) { return }
            usleep(200_000)
        }
        stop()
        throw BenchError("moto_server did not start on port \(port)")
    }

    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    private static func answers(port: Int) -> Bool {
        let fd = socket(AF_INET, streamSocketType, 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
