#!/bin/sh
# Fetches the public app trees of Tests/Fixtures/sync-trees/MANIFEST.tsv at their commits, for
# `slipway-bench sync-trees DEST` (issue 38). Needs network; never run by tests or CI.
#
#   scripts/fetch-sync-trees.sh [DEST]        (default: ./sync-trees, outside any checkout you commit)
#
# Each tree is a plain checkout (no .git folder): the checker makes its own `git init` copy.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
manifest="$here/Tests/Fixtures/sync-trees/MANIFEST.tsv"
dest=${1:-sync-trees}
mkdir -p "$dest"
grep -v '^#' "$manifest" | tail -n +2 | while IFS="$(printf '\t')" read -r name repository commit license license_file xcodeproj why; do
    if [ -d "$dest/$name" ]; then echo "$name: already there"; continue; fi
    echo "$name: $repository @ $commit ($license)"
    tmp="$dest/.$name.git"
    rm -rf "$tmp"
    git init --quiet "$tmp"
    git -C "$tmp" fetch --quiet --depth 1 "https://github.com/$repository.git" "$commit"
    mkdir -p "$dest/$name"
    git -C "$tmp" archive FETCH_HEAD | tar -x -C "$dest/$name"
    rm -rf "$tmp"
    [ -f "$dest/$name/$license_file" ] || echo "warning: $name has no $license_file" >&2
done
echo "Now: slipway-bench sync-trees $dest"
