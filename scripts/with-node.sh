#!/bin/sh
# Runs a command with a Node.js >= 22.19 first on PATH, after making sure dependencies are installed.
set -eu
root="$(cd "$(dirname "$0")/.." && pwd)"
PATH="$(sh "$root/scripts/node-bin.sh"):$PATH"
export PATH
stamp="$root/node_modules/.package-lock.json"
if [ ! -f "$stamp" ] || [ "$root/package-lock.json" -nt "$stamp" ] || [ "$root/package.json" -nt "$stamp" ]; then
  echo "tenders: installing dependencies" >&2
  # A fresh checkout installs exactly the locked tree; a changed package.json updates the lock.
  if [ -d "$root/node_modules" ]; then install=install; else install=ci; fi
  (cd "$root" && npm "$install" --no-audit --no-fund --loglevel=error >&2 && touch "$stamp")
fi
cd "$root"
exec "$@"
