#!/bin/sh
# `npm start`: install what is missing, then run the CLI (default: the server on the embedded store).
set -eu
root="$(cd "$(dirname "$0")/.." && pwd)"
# `serve` runs from its bundle (packages/cli/dist/tenders.mjs, about a second to make), made again from the sources
# first.
case " $* " in *" serve "*) sh "$root/scripts/with-node.sh" node "$root/packages/cli/scripts/bundle.mjs" >&2 ;; esac
exec sh "$root/scripts/with-node.sh" node "$root/packages/cli/bin/tenders.js" "$@"
