/// Which archive URLs Slipway downloads: http and https only. A Toolfile or Toolfile.lock comes
/// from a checkout, so a `file://` URL in it could make `slipway tools` copy any file this
/// machine can read into the tools cache (and run it).
enum ArchiveURLPolicy {
    /// Why other schemes are refused (a full sentence).
    static let reason = "Slipway downloads tools over https:// and http:// only, because a file:// (or other) URL "
        + "in a Toolfile from a checkout could read any file on this machine."
    /// What to do instead (a full sentence).
    static let remedy = "Serve the archive over https:// (for a local test, any HTTP server on 127.0.0.1 will do) "
        + "and put that URL in the Toolfile."

    /// True when `url` starts with `https://` or `http://` (any case).
    static func allows(_ url: String) -> Bool {
        let lowered = url.lowercased()
        return lowered.hasPrefix("https://") || lowered.hasPrefix("http://")
    }
}
