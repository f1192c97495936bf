/// The long messages about Slipway's pin, kept out of `CIExportError`'s switch.
enum SlipwayPinMessages {
    /// Why an export without a pin or a `--slipway-*` option stops, and the three ways on.
    static func notPinned(lockfileExists: Bool) -> String {
        let found = lockfileExists ? "Toolfile.lock pins no tool 'slipway'" : "there is no Toolfile.lock"
        return """
            every exported job runs 'slipway', but \(found): pin Slipway so that each job installs that exact build, \
            checksum-verified and cached. Add it to the Toolfile (your release's URL, with {version}, {os} and {arch} \
            placeholders, and the exact version the project uses):
              tools:
                slipway:
                  archive: https://example.com/slipway/{version}/slipway-{os}-{arch}.tar.gz
                  executable: slipway
                  platforms: [linux-x86_64, macos-arm64]
                  version: 1.2.3
            then run 'slipway tools lock' and commit Toolfile and Toolfile.lock. Or pass --slipway-on-path when the \
            runners already have slipway, or --slipway-setup COMMAND to install it your way (see docs/ci.md)
            """
    }
}
