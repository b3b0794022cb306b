#!/usr/bin/env bash
# CI: builds the `tenders serve` image from the Containerfile users build, then starts the image's own command from
# its mounted root (`podman run` is refused by this sandbox: chroot as the image's user, with its environment and
# working directory, as pid 1 of its own pid namespace) on the embedded store and on PostgreSQL (TEST_DATABASE_URL),
# and searches through it (docs/container.md, "What CI checks").
# Needs root. Usage: bash scripts/container-test.sh   (TENDERS_IMAGE names the image, default localhost/tenders:ci)
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
image="${TENDERS_IMAGE:-localhost/tenders:ci}"
database=tenders_container_test
say() { echo "container-test: $*"; }
fail() {
  echo "container-test: FAILED: $*" >&2
  exit 1
}
elapsed() { echo "$(($(date +%s) - $1)) s"; }

[ "$(id -u)" = 0 ] || fail "needs root (to install packages, mount the image and chroot into it)"
PATH="$(sh scripts/node-bin.sh):$PATH"
export PATH

missing=()
for pair in podman:podman mmdebstrap:mmdebstrap curl:curl psql:postgresql-client pgrep:procps nsenter:util-linux; do
  command -v "${pair%%:*}" >/dev/null 2>&1 || missing+=("${pair#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]} from Debian's packages"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/tenders-container.XXXXXX")"
root=""
launcher=""
server=""
log=""
hostname=tenders
mounts=()
admin_url=""
cleanup() {
  local status=$?
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then kill -KILL "$server" 2>/dev/null || true; fi
  if [ -n "$launcher" ]; then wait "$launcher" 2>/dev/null || true; fi
  if [ $status -ne 0 ] && [ -n "$log" ] && [ -f "$log" ]; then
    echo "container-test: the server's log (last 40 lines):" >&2
    tail -n 40 "$log" >&2
  fi
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" || true
  done
  [ -n "$root" ] && podman image unmount "$image" >/dev/null 2>&1 || true
  [ -n "$admin_url" ] && psql "$admin_url" -qc "DROP DATABASE IF EXISTS $database" >/dev/null 2>&1 || true
  rm -rf "$work"
  [ $status -eq 0 ] || echo "container-test: failed after $(elapsed "$started")" >&2
}
trap cleanup EXIT

# The base users pull from Docker Hub, made here from Debian's packages: no image registry is reachable.
if ! podman image exists debian:bookworm-slim; then
  say "building debian:bookworm-slim from Debian's packages (mmdebstrap; no image registry is reachable here)"
  step=$(date +%s)
  mmdebstrap --quiet --variant=minbase \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    bookworm "$work/base.tar" \
    "deb http://deb.debian.org/debian bookworm main" \
    "deb http://deb.debian.org/debian bookworm-updates main" \
    "deb http://deb.debian.org/debian-security bookworm-security main"
  podman import --quiet --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["bash"]' "$work/base.tar" debian:bookworm-slim >/dev/null
  rm -f "$work/base.tar"
  say "base image built in $(elapsed "$step")"
fi

# The same build users run; a proxy that re-signs TLS (this sandbox's) needs its CAs for the npm registry.
build_args=()
extra_ca="$(cat /usr/local/share/ca-certificates/*.crt 2>/dev/null || true)"
[ -z "$extra_ca" ] || build_args+=(--build-arg "EXTRA_CA_CERTS=$extra_ca")
say "building $image from Containerfile"
step=$(date +%s)
podman build --isolation chroot --pull=never --format docker --layers --quiet -f Containerfile -t "$image" \
  "${build_args[@]}" . >/dev/null
size="$(podman image inspect "$image" --format '{{.Size}}' | awk '{ printf "%d MB", $1 / 1e6 }')"
say "image built in $(elapsed "$step") ($size)"

# What the image says to run, and as whom: read from the image, not assumed.
# A list of the image's config as NUL-separated strings (podman ends its output with a newline of its own).
strings() { podman image inspect "$image" --format "{{range $1}}{{printf \"%s\\x00\" .}}{{end}}" | head -c -1; }
mapfile -d '' -t entrypoint < <(strings .Config.Entrypoint)
mapfile -d '' -t cmd < <(strings .Config.Cmd)
command=("${entrypoint[@]}" "${cmd[@]}")
mapfile -d '' -t image_env < <(strings .Config.Env)
# Docker's form: ["CMD", argv...] or ["CMD-SHELL", command]; podman keeps it only in the docker format.
mapfile -d '' -t healthcheck < <(strings .HealthCheck.Test)
case "${healthcheck[0]:-}" in
  CMD) healthcheck=("${healthcheck[@]:1}") ;;
  CMD-SHELL) healthcheck=(/bin/sh -c "${healthcheck[1]}") ;;
  *) fail "the image has no HEALTHCHECK (podman keeps it with --format docker)" ;;
esac
IFS='|' read -r user workdir volume <<<"$(podman image inspect "$image" \
  --format '{{.Config.User}}|{{.Config.WorkingDir}}|{{range $path, $_ := .Config.Volumes}}{{$path}}{{end}}')"
workdir="${workdir:-/}"
[ ${#command[@]} -gt 0 ] || fail "the image has no ENTRYPOINT or CMD"
[ -n "$volume" ] || fail "the image declares no VOLUME for its data"
say "image: command '${command[*]}', user '$user', workdir $workdir, volume $volume"

root="$(podman image mount "$image")"
passwd_entry() { awk -F: -v u="${user%%:*}" '$1 == u || $3 == u { print $3 ":" $4 ":" $6; exit }' "$root/etc/passwd"; }
IFS=: read -r uid gid home <<<"$(passwd_entry)"
[ -n "$uid" ] || fail "user '$user' is not in the image's /etc/passwd"
[ "$uid" != 0 ] || fail "the image runs as root"
# A new named volume starts as a copy of the image's directory, owner included: the user must own it.
[ "$(stat -c %u "$root$volume")" = "$uid" ] || fail "$volume in the image is not owned by the image's user"
# `serve` runs from its bundle, made in the image from the sources it holds (bin/tenders.js serves from the sources,
# saying so, where there is no bundle or it is older than them).
[ -f "$root$workdir/packages/cli/dist/tenders.mjs" ] || fail "the image has no bundle of serve (packages/cli/dist)"
# The image's root is read-only here, as with `--read-only`: a fresh data volume, a tmpfs /tmp and /dev (its /proc
# is the server's own, mounted in its namespace).
mount_in() {
  mount "$@"
  mounts+=("${*: -1}")
}
mount_in -t tmpfs tmpfs "$root/tmp"
mount_in --bind /dev "$root/dev"

free_port() { node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => {
  process.stdout.write(String(s.address().port)); s.close() })'; }
# A command in the image as its user, in its working directory, with its environment and this run's settings
# (chroot and env exec it).
image_argv() {
  argv=(chroot --userspec="$uid:$gid" "$root" /usr/bin/env -i -C "$workdir" HOME="$home" "${image_env[@]}"
    TENDERS_PORT="$port" "${store_env[@]}" "${feeds_env[@]}" "$@")
}
# The feeds point at a closed loopback port: CI never calls TED, gnumner or EIS.
closed="http://127.0.0.1:$(free_port)"
feeds_env=("TENDERS_TED_BASE_URL=$closed" "TENDERS_GNUMNER_BASE_URL=$closed" "TENDERS_EAEU_RSS_URL=$closed/rss"
  "TENDERS_EAEU_SOAP_URL=$closed/soap")

# The image's command as a container's: pid 1 of its own pid namespace, with its own hostname and /proc (the network
# stays the machine's). Sets $launcher (unshare, whose exit status is the server's) and $server (its host pid).
start_container() {
  image_argv "${command[@]}"
  unshare --pid --fork --uts --mount --mount-proc="$root/proc" \
    /bin/sh -c 'hostname "$1" && shift && exec "$@"' sh "$hostname" "${argv[@]}" >>"$log" 2>&1 &
  launcher=$!
  server=""
  for _ in $(seq 1 100); do
    server="$(pgrep -P "$launcher" || true)"
    [ -z "$server" ] || break
    sleep 0.1
  done
  [ -n "$server" ] || fail "the image's command did not start"
  [ "$(awk '/^NSpid:/ { print $NF }' "/proc/$server/status")" = 1 ] || fail "the server is not pid 1 of its namespace"
}
# A command in the running container's namespaces, as `docker exec` runs it.
in_container() {
  image_argv "$@"
  nsenter --target "$server" --uts --pid --mount -- "${argv[@]}"
}
wait_healthy() {
  local since
  since=$(date +%s)
  for _ in $(seq 1 180); do
    curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
    kill -0 "$launcher" 2>/dev/null || fail "$1: the server exited"
    sleep 1
  done
  body="$(curl -fsS "http://127.0.0.1:$port/health")" || fail "$1: no /health within 180 s"
  say "$1: /health answered after $(elapsed "$since"): $body"
}
# Sends the signal to the server and waits for it to end; sets $code, its exit status.
stop_container() {
  kill "-$1" "$server"
  for _ in $(seq 1 30); do kill -0 "$launcher" 2>/dev/null || break; sleep 1; done
  if kill -0 "$launcher" 2>/dev/null; then fail "the server did not stop within 30 s of SIG$1"; fi
  code=0
  wait "$launcher" || code=$?
  launcher=""
  server=""
}

# Prints a field of the JSON on stdin by its dotted path (results.0.id).
json_field() { node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
  const v = process.argv[1].split(".").reduce((o, k) => o?.[k], JSON.parse(s))
  process.stdout.write(String(v ?? "")) })' "$1"; }
# Searches over REST with the key and reads the first tender found; prints what it found.
search_through() {
  local label="$1" key="$2" status count id
  status="$(curl -sS -o "$work/search.json" -w '%{http_code}' "http://127.0.0.1:$port/v1/tenders/search" \
    -H "Authorization: Bearer $key" -H 'Content-Type: application/json' -d '{"q": "road", "limit": 5}')"
  [ "$status" = 200 ] || fail "$label: search answered $status: $(cat "$work/search.json")"
  count="$(json_field results.length <"$work/search.json")"
  id="$(json_field results.0.id <"$work/search.json")"
  [ "${count:-0}" -gt 0 ] || fail "$label: search for \"road\" found nothing in the seeded sample"
  status="$(curl -sS -o "$work/tender.json" -w '%{http_code}' "http://127.0.0.1:$port/v1/tenders/$id" \
    -H "Authorization: Bearer $key")"
  [ "$status" = 200 ] && [ "$(json_field id <"$work/tender.json")" = "$id" ] \
    || fail "$label: GET /v1/tenders/$id answered $status"
  echo "search \"road\" found $count, GET /v1/tenders/$id 200"
}

# Starts the image's command on one store, waits for /health, runs the image's health check, makes a key with the
# image's `tenders`, searches and reads a tender over REST, and stops the server with SIGTERM. On the embedded
# store it is first killed (SIGKILL) and started again on its volume: the store, the key and the search survive.
exercise() {
  local label="$1" data key step
  data="$(mktemp -d "$work/data.XXXXXX")"
  chown "$uid:$gid" "$data"
  mount --bind "$data" "$root$volume"
  mounts+=("$root$volume")
  port="$(free_port)"
  log="$work/serve-$label.log"
  step=$(date +%s)
  start_container
  wait_healthy "$label"
  ! grep -q "older than its sources" "$log" || fail "$label: the server ran from its sources, not its bundle"
  in_container "${healthcheck[@]}" || fail "$label: the image's HEALTHCHECK command failed"
  say "$label: the image's HEALTHCHECK command passes; the server is pid 1 of its namespace; it serves from its bundle"
  # As an operator would: `docker exec <container> tenders keys create ...`.
  key="$(in_container tenders keys create --email ci@example.com --plan pro --json | json_field key)"
  [[ "$key" == sk_live_* ]] || fail "$label: 'tenders keys create' in the image printed no key"
  say "$label: a key made with the image's tenders command; $(search_through "$label" "$key")"

  if [ -z "${store_env[*]}" ]; then
    stop_container KILL
    # The lock names pid 1 on this hostname: the next server, pid 1 again, must see it as stale, not as its own.
    grep -q '"pid":1,.*"hostname":"'"$hostname"'"' "$data/pglite.lock" \
      || fail "$label: after SIGKILL, no lock of pid 1 on $hostname in $volume: $(cat "$data/pglite.lock" 2>&1)"
    start_container
    wait_healthy "$label, restarted after SIGKILL"
    say "$label, restarted after SIGKILL: the same key; $(search_through "$label" "$key")"
  fi

  stop_container TERM
  [ "$code" = 0 ] || fail "$label: the server ended with exit code $code on SIGTERM"
  # A clean stop leaves no embedded-store lock, so a new container (another hostname) can take the volume.
  [ ! -e "$data/pglite.lock" ] || fail "$label: the server left $volume/pglite.lock behind after SIGTERM"
  umount "$root$volume"
  unset 'mounts[${#mounts[@]}-1]'
  say "$label: stopped on SIGTERM (exit code 0); passed in $(elapsed "$step")"
}

store_env=()
exercise embedded

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  admin_url="$TEST_DATABASE_URL"
  PGOPTIONS='-c client_min_messages=warning' psql "$admin_url" -qc "DROP DATABASE IF EXISTS $database"
  psql "$admin_url" -qc "CREATE DATABASE $database"
  store_env=("DATABASE_URL=$(node -e 'const u = new URL(process.argv[1]); u.pathname = "/" + process.argv[2]
process.stdout.write(u.href)' "$TEST_DATABASE_URL" "$database")")
  exercise postgresql
else
  say "postgresql: not run (TEST_DATABASE_URL is not set)"
fi

say "passed in $(elapsed "$started")"
