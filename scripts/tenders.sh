#!/bin/sh
# `npm start`: install what is missing, then run the CLI (default: the server on the embedded store).
set -eu
root="$(cd "$(dirname "$0")/.." && pwd)"
exec sh "$root/scripts/with-node.sh" node "$root/packages/cli/bin/tenders.js" "$@"
