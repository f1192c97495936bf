#!/usr/bin/env bash
# The quick start: installs what is missing, builds Slipway, then releases a sample Swift package
# with the release lane `slipway init` writes (version from the commits, changelog, tests, release
# build, archive, checksums, ed25519 signatures, release commit and tag, upload into a local
# folder), in a throwaway folder with a throwaway key.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

./scripts/setup.sh --build-only
echo "==> building slipway (release)"
# Without debug information (-debug-info-format none): the same program, about a tenth less
# compiler CPU and object files a quarter of the size for the final link to read (see
# docs/performance.md). A binary for debugging: swift build -c release --product slipway.
# slipway-merge-driver: git's merge driver for project.pbxproj in a binary that starts faster
# ('slipway xcodeproj merge --install' writes its path when it sits beside slipway).
if [ "$(uname)" = "Darwin" ]; then
  swift build -c release -debug-info-format none --product slipway
  swift build -c release -debug-info-format none --product slipway-merge-driver
else
  swift build -c release -debug-info-format none --static-swift-stdlib --product slipway
  swift build -c release -debug-info-format none --static-swift-stdlib --product slipway-merge-driver
fi
slipway="$root/.build/release/slipway"

demo=$(mktemp -d "${TMPDIR:-/tmp}/slipway-demo-XXXXXX")
package="$demo/hello"
echo "==> sample package in $package"
mkdir -p "$package"
cp -R "$root/templates/demo-package/." "$package/"
cd "$package"
"$slipway" init
git init -q -b main
git config user.name "Slipway Demo"
git config user.email demo@example.com
git add -A
git commit -qm "Initial commit"
git tag -a v0.1.0 -m "hello 0.1.0"
cat > Sources/hello/main.swift <<'EOF'
import Greeting

let names = CommandLine.arguments.dropFirst()
for name in names.isEmpty ? ["world"] : Array(names) { print(greeting(for: name)) }
EOF
git commit -qam "feat: greet everyone named on the command line"

echo "==> a throwaway signing key in $demo/keys (outside the package)"
"$slipway" keys generate --no-passphrase --output "$demo/keys" --name demo

echo "==> slipway lanes"
"$slipway" lanes
echo "==> SIGNING_KEY=… slipway run release --input product=hello"
SIGNING_KEY="$(cat "$demo/keys/demo.sec")" "$slipway" run release --input product=hello

published="$package/.slipway/published"
echo
echo "released $(cat VERSION) (tag $(git describe --tags --abbrev=0)); published in $published:"
ls -l "$published"
if command -v signify-openbsd >/dev/null; then
  echo "==> signify-openbsd -V"
  for file in "$published"/*.sig; do
    printf '%s: ' "$(basename "${file%.sig}")"
    signify-openbsd -V -p "$demo/keys/demo.pub" -m "${file%.sig}"
  done
fi
(cd "$published" && sha256sum -c SHA256SUMS 2>/dev/null || shasum -a 256 -c SHA256SUMS)
