#!/bin/sh
# Runs a command with a Node.js >= 22.19 first on PATH, after making sure dependencies are installed.
set -eu
root="$(cd "$(dirname "$0")/.." && pwd)"
PATH="$(sh "$root/scripts/node-bin.sh"):$PATH"
export PATH
stamp="$root/node_modules/.package-lock.json"
if [ ! -f "$stamp" ] || [ "$root/package-lock.json" -nt "$stamp" ] || [ "$root/package.json" -nt "$stamp" ]; then
  echo "tenders: installing dependencies" >&2
  (cd "$root" && npm install --no-audit --no-fund --loglevel=error >&2 && touch "$stamp")
fi
cd "$root"
exec "$@"
