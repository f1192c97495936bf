#!/usr/bin/env bash
# The quick start: installs what is missing, builds Slipway, then releases a sample Swift package
# with a real lane (tests, release build, archive, checksums) in a throwaway folder.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

./scripts/setup.sh
echo "==> building slipway (release)"
swift build -c release --product slipway
slipway="$root/.build/release/slipway"

demo=$(mktemp -d "${TMPDIR:-/tmp}/slipway-demo-XXXXXX")
echo "==> sample package in $demo"
cp -R "$root/templates/demo-package/." "$demo/"
cd "$demo"
"$slipway" init
printf '.build/\ndist/\n.slipway/\n' > .gitignore
git init -q -b main
git add -A
git -c user.name="Slipway Demo" -c user.email=demo@example.com commit -qm "Initial commit"

echo "==> slipway lanes"
"$slipway" lanes
echo "==> slipway run release --input product=hello"
"$slipway" run release --input product=hello
echo
echo "released into $demo/dist:"
ls -l "$demo/dist"
