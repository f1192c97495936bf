/// Writes entries as a gzip-compressed tar stream, handing the compressed bytes to a sink as
/// they come (the caller hashes and stores them). Inputs are streamed chunk by chunk; the same
/// entries and settings give the same bytes.
public struct TarGzipWriter {
    private let inputs: any ArchiveInputs
    private let settings: ArchiveSettings
    private let advance: (Int64) -> Void

    /// A writer reading entries' files from `inputs`; `advance` is called with the number of
    /// input bytes each chunk archived.
    public init(inputs: any ArchiveInputs, settings: ArchiveSettings, advance: @escaping (Int64) -> Void = { _ in }) {
        self.inputs = inputs
        self.settings = settings
        self.advance = advance
    }

    /// Writes `entries` in order, then the tar trailer, and ends the gzip stream.
    /// - Throws: `ArchiveError.compressionFailed` (zlib, or an input that changed size while
    ///   being read), or what `inputs` and `sink` throw.
    public func write(_ entries: [ArchiveEntry], to sink: @escaping (UnsafeRawBufferPointer) throws -> Void) throws {
        let gzip = try GzipWriter(level: settings.compressionLevel, subject: settings.output, sink: sink)
        var tarLength: Int64 = 0
        func emit(_ bytes: [UInt8]) throws {
            try gzip.write(bytes)
            tarLength += Int64(bytes.count)
        }
        for entry in entries {
            try emit(TarHeader.blocks(for: entry, mtime: settings.modificationTime))
            guard case .file(let source, let size) = entry.content else { continue }
            var copied: Int64 = 0
            try inputs.forEachChunk(ofFile: source) { chunk in
                let usable = UnsafeRawBufferPointer(rebasing: chunk.prefix(Int(min(Int64(chunk.count), size - copied))))
                try gzip.write(usable)
                copied += Int64(usable.count)
                advance(Int64(usable.count))
            }
            // A file that shrank while being read would corrupt the tar stream; refuse it.
            guard copied == size else {
                throw ArchiveError.compressionFailed(path: source, reason: "it changed size while being archived")
            }
            tarLength += size
            try emit(TarHeader.padding(after: size))
        }
        try emit(TarHeader.trailer(archiveLength: tarLength))
        try gzip.finish()
    }
}
