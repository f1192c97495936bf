import Foundation

#if canImport(Glibc)
import Glibc
private let streamSocketType = Int32(SOCK_STREAM.rawValue)
#elseif canImport(Darwin)
import Darwin
private let streamSocketType = SOCK_STREAM
#endif

/// A Python HTTP server script run as a child process on 127.0.0.1. The script binds port 0
/// and prints the port it got as its first line; the process is killed when the value is
/// released. The upload test servers are built on it.
public final class PythonScriptServer: @unchecked Sendable {
    /// The port on 127.0.0.1.
    public let port: Int
    /// A scratch folder for the script and whatever it stores.
    public let scratch: TemporaryDirectory
    private let process: Process

    /// Why a server did not start.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Writes `script` to a file and runs it with `arguments`; waits (up to 15 s) for its port.
    public init(script: String, arguments: [String] = [], name: String) throws {
        scratch = try TemporaryDirectory(prefix: "slipway-\(name)")
        let path = scratch.path + "/server.py"
        try Data(script.utf8).write(to: URL(fileURLWithPath: path))
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", path] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        let deadline = Date().addingTimeInterval(60)  // returns as soon as it answers; generous for a loaded machine
        while !line.contains(UInt8(ascii: "\n")), Date() < deadline {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(text.split(separator: "\n").first ?? "") else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            throw StartError(description: "the \(name) server did not start: \(text)")
        }
        self.port = port
    }

    /// `http://127.0.0.1:PORT` followed by `path`.
    public func url(_ path: String = "") -> String { "http://127.0.0.1:\(port)\(path)" }

    deinit {
        // SIGKILL: test processes may block SIGTERM, and children inherit that.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// GET `path` on the server; the body. For test assertions on the server's state.
    public func get(_ path: String) throws -> Data {
        try Self.request("GET", url(path), body: nil)
    }

    /// POST a JSON body to `path` on the server (to configure its behaviour).
    public func post(_ path: String, json: String) throws {
        _ = try Self.request("POST", url(path), body: Data(json.utf8))
    }

    /// A blocking request through Python's urllib, which keeps the tests' control traffic
    /// independent of the HTTP client under test.
    static func request(_ method: String, _ url: String, body: Data?) throws -> Data {
        let client = """
            import sys, urllib.request
            data = sys.stdin.buffer.read() if sys.argv[1] != "GET" else None
            request = urllib.request.Request(sys.argv[2], data=data, method=sys.argv[1], headers={"Content-Type": "application/json"})
            sys.stdout.buffer.write(urllib.request.urlopen(request).read())
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", client, method, url]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        if let body { input.fileHandleForWriting.write(body) }
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw StartError(description: "\(method) \(url) failed") }
        return data
    }

    /// A TCP port nobody listens on right now (bind to port 0, read it, close).
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, streamSocketType, 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, named == 0 else { throw StartError(description: "no free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// True when `name` is an executable on this process's PATH.
    public static func isInstalled(_ name: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
    }
}

/// Python shared by the loopback test servers' scripts, interpolated into their handler classes
/// (each line after the first carries the class-body indentation).
public enum PythonSnippets {
    /// `read_body(self, limit=None)`: the request body, plain or chunked (clients may stream file
    /// bodies chunked); with `limit`, at most about that many bytes (to hang up mid-body).
    public static let readBody = """
        def read_body(self, limit=None):
                if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                    data = b""
                    while True:
                        size = int(self.rfile.readline().strip().split(b";")[0], 16)
                        if size == 0:
                            self.rfile.readline()
                            return data
                        data += self.rfile.read(size)
                        self.rfile.readline()
                        if limit is not None and len(data) >= limit:
                            return data
                length = int(self.headers.get("Content-Length") or 0)
                return self.rfile.read(length if limit is None else min(limit, length))
        """
}
