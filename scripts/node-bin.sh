#!/bin/sh
# Prints the bin directory of a Node.js >= 22.19: the one on PATH when it is recent enough, else
# Node 24 from the npm registry's `node` package, installed once into $TENDERS_NODE_HOME
# (default $HOME/.cache/node24).
set -eu
if command -v node >/dev/null 2>&1 && node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=19)?0:1)' 2>/dev/null; then
  dirname "$(command -v node)"
  exit 0
fi
home="${TENDERS_NODE_HOME:-$HOME/.cache/node24}"
bin="$home/node_modules/.bin"
if [ ! -x "$bin/node" ] || ! "$bin/node" -e 'process.exit(Number(process.versions.node.split(".")[0])>=24?0:1)' 2>/dev/null; then
  echo "tenders: this machine's Node is older than 22.19; installing Node 24 into $home (once)" >&2
  mkdir -p "$home"
  npm install --prefix "$home" --no-save --no-audit --no-fund --loglevel=error node@24 >&2
fi
echo "$bin"
