/// The archive formats Slipway unpacks, told by the URL's path suffix: `.tar.gz`/`.tgz` (the
/// system's `tar`) and `.zip` (`unzip`). Shared by `tools install` and the install script that
/// `ci export` writes, so that both accept the same archives.
public enum ArchiveFormat: String, Sendable, Equatable {
    /// A gzip-compressed tar archive (`.tar.gz`, `.tgz`).
    case tarGzip = "tar.gz"
    /// A zip archive.
    case zip

    /// The format of the archive at `url` (query and fragment ignored, any case); nil for
    /// other suffixes.
    public init?(url: String) {
        let path = url.prefix { $0 != "?" && $0 != "#" }.lowercased()
        if path.hasSuffix(".tar.gz") || path.hasSuffix(".tgz") {
            self = .tarGzip
        } else if path.hasSuffix(".zip") {
            self = .zip
        } else {
            return nil
        }
    }
}
