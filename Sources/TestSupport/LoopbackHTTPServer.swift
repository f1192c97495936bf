import Foundation

#if canImport(Glibc)
import Glibc
private let streamSocket = Int32(SOCK_STREAM.rawValue)
#elseif canImport(Darwin)
import Darwin
private let streamSocket = SOCK_STREAM
#endif

/// A real HTTP server on 127.0.0.1 serving a folder: `python3 -m http.server` on a free port,
/// started and waited for in `init`, killed when the value is released. Tests put files in
/// `folder` and download them from `url(for:)`; nothing ever leaves the machine.
public final class LoopbackHTTPServer: @unchecked Sendable {
    /// The folder served (a fresh temporary directory).
    public let folder: TemporaryDirectory
    /// The port it listens on.
    public let port: Int
    private let process: Process

    /// Why the server could not be started.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts the server and waits (up to 10 s) until it accepts connections.
    public init() throws {
        folder = try TemporaryDirectory(prefix: "slipway-http")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // Port 0 lets the system pick a free port; -u makes python print the port at once.
        process.arguments = ["python3", "-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", folder.path, "0"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var port: Int?
        var text = ""
        let deadline = Date().addingTimeInterval(60)  // returns as soon as it answers; generous for a loaded machine
        while port == nil, Date() < deadline, process.isRunning {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
            port = Self.port(in: text)
        }
        guard let port else {
            kill(process.processIdentifier, SIGKILL)
            throw StartError(description: "python3 -m http.server did not start: \(text)")
        }
        self.port = port
        try Self.waitUntilAnswering(port: port, deadline: deadline)
    }

    deinit {
        // SIGKILL, not SIGTERM: a test process may run with SIGTERM blocked, which children inherit.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The URL of a file in `folder`.
    public func url(for relativePath: String) -> String {
        "http://127.0.0.1:\(port)/\(relativePath)"
    }

    /// Writes `data` at `relativePath` in the served folder.
    public func put(_ relativePath: String, _ data: Data) throws {
        let path = folder.path + "/" + relativePath
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// "Serving HTTP on 127.0.0.1 port 40123 (http://127.0.0.1:40123/) ..."
    static func port(in text: String) -> Int? {
        guard let range = text.range(of: " port ") else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }

    private static func waitUntilAnswering(port: Int, deadline: Date) throws {
        while Date() < deadline {
            let fd = socket(AF_INET, streamSocket, 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            close(fd)
            if connected == 0 { return }
            usleep(20_000)
        }
        throw StartError(description: "the server on port \(port) did not answer")
    }
}
