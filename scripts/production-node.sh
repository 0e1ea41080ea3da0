#!/usr/bin/env bash
# Prints the path of the Node.js binary production runs (the version in .nvmrc): this machine's own
# node when it is that version, else the official binary from the npm registry's node-linux-<arch>
# package, installed once into a cache folder. CI runs the suite on it, and the bench its servers.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
version="$(tr -d ' \n' < "$root/.nvmrc")"
if [ "$(node --version)" = "v$version" ]; then
  command -v node
  exit 0
fi
dir="${XDG_CACHE_HOME:-$HOME/.cache}/affiliate-network-api/node-$version"
package="node-linux-$(node -p process.arch)"
binary="$dir/node_modules/$package/bin/node"
if [ ! -x "$binary" ]; then
  npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
    "$package@$version" >&2
fi
echo "$binary"
