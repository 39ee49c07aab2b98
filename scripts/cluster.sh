#!/usr/bin/env bash
# Moat on several instances, on one machine (docs/scale-out.md): a fresh database on
# the local PostgreSQL, a nats-server, two `moat` instances sharing both, and HAProxy
# in front of them (health checks on /readyz, WebSockets passed through). Prints the
# URL, then runs until Ctrl-C, when it stops everything and drops the database.
#
#   scripts/cluster.sh                       # http://127.0.0.1:8080
#   CLUSTER_PORT=9000 scripts/cluster.sh
#
# Settings (environment):
#   CLUSTER_PORT        HAProxy's port (8080); the instances listen on the next two
#   CLUSTER_NATS_PORT   the nats-server's port (14222; the machine's own stays alone)
#   PG_ADMIN_URL        a PostgreSQL URL allowed to create databases
#                       (postgres://postgres@127.0.0.1:5432/postgres)
#   MOAT_BIN            the moat binary (built in release mode when not given)
#   CLUSTER_STATE_DIR   where logs, data dirs, pids and ports go (a new temp dir)
# Needs: psql, nats-server, haproxy (Debian's; installed here when run as root), curl.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

PORT="${CLUSTER_PORT:-8080}"
NATS_PORT="${CLUSTER_NATS_PORT:-14222}"
PG_ADMIN_URL="${PG_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
STATE="${CLUSTER_STATE_DIR:-$(mktemp -d -t moat-cluster.XXXXXX)}"
mkdir -p "$STATE"
PORT_A=$((PORT + 1))
PORT_B=$((PORT + 2))

say() { printf 'cluster: %s\n' "$*" >&2; }

need() {
  local cmd=$1 pkg=$2
  command -v "$cmd" >/dev/null 2>&1 && return
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    say "installing Debian's $pkg"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >/dev/null \
      || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >/dev/null; }
  else
    say "$cmd is missing: sudo apt-get install -y $pkg"
    exit 1
  fi
}
need haproxy haproxy
need nats-server nats-server
need psql postgresql-client
need curl curl

if [[ -z "${MOAT_BIN:-}" ]]; then
  say "building moat (release)"
  (cd "$ROOT" && cargo build --release --locked -p moat >&2)
  MOAT_BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/moat"
fi

# Each instance and HAProxy need file descriptors per connection (HAProxy two).
ulimit -n 20000 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

DB="moat_cluster_$$_$(date +%s)"
DB_URL="${PG_ADMIN_URL%/*}/$DB"
PIDS=()

cleanup() {
  trap - INT TERM EXIT
  say "stopping"
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  [[ -f "$STATE/nats.pid" ]] && kill "$(cat "$STATE/nats.pid")" 2>/dev/null || true
  wait 2>/dev/null || true
  psql -q "$PG_ADMIN_URL" -c "DROP DATABASE IF EXISTS \"$DB\" WITH (FORCE)" >/dev/null 2>&1 || true
}
trap 'cleanup; exit 0' INT TERM
trap cleanup EXIT

psql -q -v ON_ERROR_STOP=1 "$PG_ADMIN_URL" -c "CREATE DATABASE \"$DB\"" >/dev/null
say "database $DB"

nats-server -a 127.0.0.1 -p "$NATS_PORT" >"$STATE/nats.log" 2>&1 &
echo $! >"$STATE/nats.pid"

TOKEN_KEY="$(head -c 32 /dev/urandom | base64)"
start_instance() {
  local name=$1 port=$2
  mkdir -p "$STATE/$name"
  MOAT_HOST=127.0.0.1 MOAT_PORT="$port" MOAT_DATA_DIR="$STATE/$name/data" \
    MOAT_DATABASE_URL="$DB_URL" MOAT_BROKER_URL="nats://127.0.0.1:$NATS_PORT" \
    MOAT_ACCOUNTS_TOKEN_KEY="$TOKEN_KEY" MOAT_TRUSTED_PROXIES='["127.0.0.1"]' \
    MOAT_PUBLIC_URL="http://127.0.0.1:$PORT" MOAT_MAX_CONNECTIONS=10000 \
    "$MOAT_BIN" serve >"$STATE/$name/moat.log" 2>&1 &
  echo $! >"$STATE/$name/pid"
  PIDS+=("$!")
}
# Both at once on the empty database: migrations run once (sqlx takes a lock).
start_instance a "$PORT_A"
start_instance b "$PORT_B"

cat >"$STATE/haproxy.cfg" <<EOF
global
    # Two file descriptors per connection (client and server side) within the
    # open-file limit of 20,000.
    maxconn 9000
defaults
    mode http
    option forwardfor
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    # WebSockets: an upgraded connection lives as long as the tunnel timeout.
    timeout tunnel 1h
    timeout client-fin 5s
    retries 2
    option redispatch
frontend moat
    bind 127.0.0.1:$PORT
    default_backend instances
backend instances
    balance roundrobin
    option httpchk
    http-check send meth GET uri /readyz
    http-check expect status 200
    default-server check inter 1s fall 2 rise 1
    server a 127.0.0.1:$PORT_A
    server b 127.0.0.1:$PORT_B
EOF
haproxy -f "$STATE/haproxy.cfg" -db >"$STATE/haproxy.log" 2>&1 &
echo $! >"$STATE/haproxy.pid"
PIDS+=("$!")

cat >"$STATE/ports" <<EOF
url=http://127.0.0.1:$PORT
a=http://127.0.0.1:$PORT_A
b=http://127.0.0.1:$PORT_B
nats_port=$NATS_PORT
database_url=$DB_URL
EOF

ready() { curl -fsS -o /dev/null "$1/readyz" 2>/dev/null; }
for _ in $(seq 1 300); do
  if ready "http://127.0.0.1:$PORT_A" && ready "http://127.0.0.1:$PORT_B" && ready "http://127.0.0.1:$PORT"; then
    echo "Moat cluster: http://127.0.0.1:$PORT (instances :$PORT_A and :$PORT_B, NATS :$NATS_PORT, state in $STATE)"
    say "Ctrl-C stops everything"
    # An instance that dies is reported (HAProxy sends its clients to the other);
    # when HAProxy itself ends, everything stops.
    reported=""
    while kill -0 "$(cat "$STATE/haproxy.pid")" 2>/dev/null; do
      for f in a b; do
        if [[ $reported != *$f* ]] && ! kill -0 "$(cat "$STATE/$f/pid")" 2>/dev/null; then
          say "instance $f stopped; HAProxy serves from the other (log: $STATE/$f/moat.log)"
          reported+=$f
        fi
      done
      sleep 1
    done
    say "HAProxy stopped; see $STATE/haproxy.log"
    exit 1
  fi
  for f in a b; do
    if ! kill -0 "$(cat "$STATE/$f/pid")" 2>/dev/null; then
      say "instance $f did not start:"; tail -20 "$STATE/$f/moat.log" >&2; exit 1
    fi
  done
  sleep 0.2
done
say "the cluster did not become ready within 60 s; logs in $STATE"
exit 1
