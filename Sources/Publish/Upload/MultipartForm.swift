import Archives
import Basics
import Foundation

/// A multipart/form-data body (RFC 7578): text fields, then one file, written to a temporary
/// file in chunks so that a large binary is never held in memory. The HTTP upload (`method:
/// post`) and DeployGate send such bodies; the temporary folder goes with `remove()`.
struct MultipartForm {
    /// The boundary between parts (also the `Content-Type`'s parameter).
    let boundary: String
    /// Text fields, in order.
    var fields: [(name: String, value: String)] = []

    /// `multipart/form-data; boundary=...`.
    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The body for `fields` followed by `file` in the field `fileField`, written to a new
    /// private temporary folder; returns the body's path.
    /// - Throws: `FileSystemError` when the file cannot be read or the body written (nothing is
    ///   left behind then).
    func write(file: UploadFile, fileField: String, streams: any FileStreams, fileSystem: any FileSystem) throws -> String {
        let folder = try streams.makeTemporaryDirectory(prefix: "slipway-multipart")
        let path = folder + "/body"
        var head = ""
        for field in fields {
            head += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.quoted(field.name))\"\r\n\r\n\(field.value)\r\n"
        }
        head += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.quoted(fileField))\"; "
            + "filename=\"\(Self.quoted(file.name))\"\r\nContent-Type: \(ContentType.of(file.name))\r\n\r\n"
        do {
            let output = try streams.createAtomically(path, permissions: 0o600)
            try output.write(Array(head.utf8))
            try streams.openForReading(file.path).forEachChunk { try output.write($0) }
            try output.write(Array("\r\n--\(boundary)--\r\n".utf8))
            try output.commit()
        } catch {
            try? fileSystem.remove(folder)
            throw error
        }
        return path
    }

    /// Removes the temporary folder of a body `write` made.
    static func remove(_ body: String, fileSystem: any FileSystem) {
        try? fileSystem.remove((body as NSString).deletingLastPathComponent)
    }

    /// A name escaped for a quoted header parameter.
    private static func quoted(_ name: String) -> String {
        name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }
}
