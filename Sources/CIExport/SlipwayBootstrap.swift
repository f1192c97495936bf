/// The POSIX `sh` script every exported job runs before it calls `slipway`, when Toolfile.lock
/// pins Slipway: it installs that exact build into Slipway's cache folder and puts it on PATH.
///
/// It picks the runner's platform from `uname -s`/`uname -m`; uses the cached executable when
/// its SHA-256 is the locked one; otherwise downloads the archive (`curl -fsSL --retry 3`),
/// checks the archive's SHA-256 before unpacking it, checks the executable's, and installs it.
/// Any mismatch fails the job naming both checksums and Toolfile.lock. The unpacked archive goes
/// where `slipway tools install` puts it (`<cache>/tools/slipway/VERSION/PLATFORM`, the cache
/// folder found as Slipway finds it), so that a later `tools install` finds it installed; a
/// symbolic link on the way below the cache folder (a GitLab cache lives in the checkout) is
/// refused. The three engines run
/// the same lines; only the hand-over of PATH differs (`$GITHUB_PATH` on GitHub, `export PATH`
/// in the same shell on GitLab and Buildkite).
public enum SlipwayBootstrap {
    /// How the installed folder reaches the job's later commands.
    public enum PathHandOff: Sendable {
        /// Appended to the file `$GITHUB_PATH` names (GitHub Actions: later steps have it).
        case githubPath
        /// `export PATH=...` in the current shell (GitLab, Buildkite: one shell per job).
        case export
    }

    /// The script's lines for `pin`. Every value from the lock is single-quoted; `SlipwayPin`
    /// has already checked that none has a quote, `$`, backquote, backslash or line break.
    public static func lines(_ pin: SlipwayPin, handOff: PathHandOff) -> [String] {
        var lines = [
            "# Install slipway \(pin.version) as pinned in \(SlipwayPin.lockfileName) (written by 'slipway ci export').",
            "slipway_dir=\"$(",
            "  set -eu",
            "  fail() { echo \"error: $*\" >&2; exit 1; }",
            "  version=\(quoted(pin.version))",
            "  executable=\(quoted(pin.executable))",
            "  case \"$(uname -s)\" in",
            "    (Linux) os=linux ;;",
            "    (Darwin) os=macos ;;",
            "    (*) fail \"this runner's system '$(uname -s)' (uname -s) is neither Linux nor Darwin: Slipway runs on Linux and macOS\" ;;",
            "  esac",
            "  case \"$(uname -m)\" in",
            "    (x86_64|amd64) arch=x86_64 ;;",
            "    (arm64|aarch64) arch=arm64 ;;",
            "    (*) fail \"this runner's CPU '$(uname -m)' (uname -m) is neither x86_64 nor arm64: Slipway runs on those two\" ;;",
            "  esac",
            "  platform=\"$os-$arch\"",
            "  case \"$platform\" in",
        ]
        for download in pin.downloads {
            lines.append("    (\(download.platform)) url=\(quoted(download.url)) archive_sha256=\(quoted(download.sha256)) "
                + "executable_sha256=\(quoted(download.executableSHA256)) format=\(quoted(download.format.rawValue)) ;;")
        }
        let listed = pin.platforms.joined(separator: ", ")
        lines += [
            "    (*) fail \"\(SlipwayPin.lockfileName) pins slipway $version for \(listed) only, not for this runner ($platform, "
                + "uname: $(uname -s) $(uname -m)); add $platform to the platforms of 'slipway' in the Toolfile and run "
                + "'slipway tools lock', or run this job on a listed platform\" ;;",
            "  esac",
            "  if command -v sha256sum >/dev/null 2>&1; then sha256() { sha256sum \"$1\" | cut -d ' ' -f 1; }",
            "  elif command -v shasum >/dev/null 2>&1; then sha256() { shasum -a 256 \"$1\" | cut -d ' ' -f 1; }",
            "  else fail \"neither sha256sum nor shasum is installed on this runner: install coreutils so that slipway can be checked against \(SlipwayPin.lockfileName)\"",
            "  fi",
            "  if [ -n \"${SLIPWAY_CACHE_DIR:-}\" ]; then cache=\"$SLIPWAY_CACHE_DIR\"",
            "  else",
            "    case \"${XDG_CACHE_HOME:-}\" in",
            "      (/*) cache=\"$XDG_CACHE_HOME/slipway\" ;;",
            "      (*) cache=\"$HOME/.cache/slipway\" ;;",
            "    esac",
            "  fi",
            "  dir=\"$cache/tools/slipway/$version/$platform\"",
            "  if [ -f \"$dir/$executable\" ] && [ \"$(sha256 \"$dir/$executable\")\" = \"$executable_sha256\" ]; then",
            "    echo \"slipway $version ($platform): using the cached $dir/$executable\" >&2",
            "  else",
            "    if [ -e \"$dir/$executable\" ]; then",
            "      echo \"slipway $version ($platform): the cached $dir/$executable does not match \(SlipwayPin.lockfileName); downloading it again\" >&2",
            "    fi",
            "    command -v curl >/dev/null 2>&1 || fail \"curl is not installed on this runner: install it so that slipway $version can be downloaded\"",
            "    work=\"$(mktemp -d \"${TMPDIR:-/tmp}/slipway-install.XXXXXX\")\"",
            "    trap 'rm -rf \"$work\"' EXIT",
            "    echo \"slipway $version ($platform): downloading $url\" >&2",
            "    curl -fsSL --retry 3 -o \"$work/archive\" \"$url\" || fail \"could not download slipway $version from $url (curl exit status $?)\"",
            "    actual=\"$(sha256 \"$work/archive\")\"",
            "    [ \"$actual\" = \"$archive_sha256\" ] || fail \"checksum mismatch for slipway $version ($platform) from $url: "
                + "\(SlipwayPin.lockfileName) expects sha256 $archive_sha256, the download has sha256 $actual; it was not unpacked. "
                + "If the archive was replaced on purpose, run 'slipway tools lock' again and review the change\"",
            "    mkdir \"$work/unpacked\"",
            "    if [ \"$format\" = zip ]; then",
            "      unzip -q \"$work/archive\" -d \"$work/unpacked\" >&2 || fail \"could not unpack slipway $version from $url with unzip\"",
            "    else",
            "      tar -xzf \"$work/archive\" -C \"$work/unpacked\" >&2 || fail \"could not unpack slipway $version from $url with tar\"",
            "    fi",
            "    [ -f \"$work/unpacked/$executable\" ] || fail \"the archive of slipway $version from $url has no '$executable', "
                + "the executable \(SlipwayPin.lockfileName) names\"",
            "    actual=\"$(sha256 \"$work/unpacked/$executable\")\"",
            "    [ \"$actual\" = \"$executable_sha256\" ] || fail \"checksum mismatch for '$executable' of slipway $version ($platform) "
                + "from $url: \(SlipwayPin.lockfileName) expects sha256 $executable_sha256, the archive has sha256 $actual\"",
            "    mkdir -p \"$cache/tools/slipway/$version\"",
            "    resolved=\"$(cd \"$cache/tools/slipway/$version\" && pwd -P)\"",
            "    expected=\"$(cd \"$cache\" && pwd -P)/tools/slipway/$version\"",
            "    [ \"$resolved\" = \"$expected\" ] || fail \"$cache/tools/slipway/$version leads to $resolved through a symbolic link; "
                + "refusing to install slipway there: remove the link from the cache folder (a checkout may hold the cache folder on GitLab)\"",
            "    chmod 755 \"$work/unpacked/$executable\"",
            "    rm -rf \"$dir\"",
            "    mv \"$work/unpacked\" \"$dir\"",
            "    echo \"slipway $version ($platform): installed $dir/$executable\" >&2",
            "  fi",
            "  dirname \"$dir/$executable\"",
            ")\" || exit 1",
        ]
        switch handOff {
        case .githubPath:
            lines += ["echo \"$slipway_dir\" >> \"$GITHUB_PATH\"", "\"$slipway_dir/slipway\" --version"]
        case .export:
            lines += ["export PATH=\"$slipway_dir:$PATH\"", "slipway --version"]
        }
        return lines
    }

    /// `value` in single quotes; `SlipwayPin` admits no `'` in any value, so there is nothing
    /// to escape, but one would still be closed and escaped rather than end the word.
    static func quoted(_ value: String) -> String {
        "'" + value.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
