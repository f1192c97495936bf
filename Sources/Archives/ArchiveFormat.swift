/// The archive formats Slipway writes (`archive` step) and unpacks (`tools install`, and the
/// install script that `ci export` writes), so that all of them accept the same archives.
public enum ArchiveFormat: String, Sendable, Hashable, CaseIterable {
    /// A ustar/pax tar stream, gzip-compressed (`.tar.gz`, `.tgz`).
    case tarGzip = "tar.gz"
    /// A zip file.
    case zip

    /// The format a file name implies (`.tar.gz`, `.tgz`, `.zip`, any case), or nil.
    public init?(fileName: String) {
        let lower = fileName.lowercased()
        if lower.hasSuffix(".tar.gz") || lower.hasSuffix(".tgz") {
            self = .tarGzip
        } else if lower.hasSuffix(".zip") {
            self = .zip
        } else {
            return nil
        }
    }

    /// The format of the archive at `url`, by its path's suffix (query and fragment ignored, any
    /// case); nil for other suffixes.
    public init?(url: String) {
        self.init(fileName: String(url.prefix { $0 != "?" && $0 != "#" }))
    }
}
