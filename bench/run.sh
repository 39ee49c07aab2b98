#!/usr/bin/env bash
# Benchmarks that print figures (medians): server cold start, idle memory, static
# index.html throughput beside /healthz (wrk from a second process), and the web
# targets (first-route bundle size, LCP, CLS). Machines are noisy: compare figures
# from the same run, not against fixed thresholds.
#   bench/run.sh            (needs wrk: apt-get install -y wrk)
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
cd "$ROOT"
build_web
npm_install "$ROOT/e2e"
step "building moat (release)"
cargo build --release --locked -p moat
BIN="$TARGET_DIR/release/moat"
DATA="$(mktemp -d)"
PORT=18080
trap 'kill $PID 2>/dev/null || true; rm -rf "$DATA"' EXIT

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# An existing database: start once so it is created and migrated.
"$BIN" --port $PORT --data-dir "$DATA" >/dev/null 2>&1 & PID=$!
until curl -sf "http://127.0.0.1:$PORT/readyz" >/dev/null; do sleep 0.05; done
kill $PID; wait $PID 2>/dev/null || true

step "cold start to a ready /readyz (existing SQLite database), 11 runs"
times=()
for _ in $(seq 11); do
  t0=$(date +%s%N)
  "$BIN" --port $PORT --data-dir "$DATA" >/dev/null 2>&1 & PID=$!
  until curl -sf "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1; do :; done
  t1=$(date +%s%N)
  times+=($(( (t1 - t0) / 1000000 )))
  kill $PID; wait $PID 2>/dev/null || true
done
echo "cold start: median $(printf '%s\n' "${times[@]}" | median) ms [${times[*]}] (target ≤ 300 ms)"

"$BIN" --port $PORT --data-dir "$DATA" >/dev/null 2>&1 & PID=$!
until curl -sf "http://127.0.0.1:$PORT/readyz" >/dev/null; do sleep 0.05; done
curl -sf "http://127.0.0.1:$PORT/" >/dev/null; curl -sf "http://127.0.0.1:$PORT/api/meta" >/dev/null
sleep 2
echo "idle resident memory: $(awk '/VmRSS/ {printf "%.1f MB", $2/1024}' /proc/$PID/status) (target ≤ 40 MB)"

# A member for the authenticated runs.
TOKEN=$(curl -sf -H 'content-type: application/json' \
  -d '{"email":"bench@moat.example","password":"correct horse battery","nickname":"bench"}' \
  "http://127.0.0.1:$PORT/api/auth/signup" | sed -E 's/.*"token":"([^"]+)".*/\1/')

if command -v wrk >/dev/null; then
  step "throughput: wrk, 2 threads, 64 connections, 10 s each, same run"
  for path in /healthz / ; do
    rps=$(wrk -t2 -c64 -d10s -H 'Accept-Encoding: br, gzip' "http://127.0.0.1:$PORT$path" | awk '/Requests\/sec/ {print $2}')
    echo "GET $path: $rps req/s"
    eval "rps_$( [[ $path == / ]] && echo index || echo health )=$rps"
  done
  awk -v a="$rps_index" -v b="$rps_health" 'BEGIN {printf "index.html / healthz ratio: %.2f\n", a/b}'
  rps_me=$(wrk -t2 -c64 -d10s -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT/api/me" | awk '/Requests\/sec/ {print $2}')
  echo "GET /api/me (authenticated): $rps_me req/s"
  awk -v a="$rps_me" -v b="$rps_health" 'BEGIN {printf "authenticated /api/me / healthz ratio: %.2f\n", a/b}'
else
  echo "wrk not installed: skipping throughput (apt-get install -y wrk)"
fi
echo "idle resident memory after load: $(awk '/VmRSS/ {printf "%.1f MB", $2/1024}' /proc/$PID/status)"

step "auth: token verification and log-in latency (medians)"
cargo bench --locked -p moat-server --bench auth 2>/dev/null | grep -E 'µs|ms'

step "market: search over 20,000 instruments (medians, p99)"
cargo bench --locked -p moat-market --bench search 2>/dev/null | grep -E 'ms'

step "market: backfill, candles (medians, p99)"
cargo bench --locked -p moat-server --bench market 2>/dev/null | grep -E 'ms|µs| s '

step "portfolio: valuation, daily values, returns, CSV, XIRR (medians)"
cargo bench --locked -p moat-portfolio --bench portfolio 2>/dev/null | grep -E 'ms|portfolio:'

step "stream: 150 instruments to 2,000 WebSocket subscribers (median, p99, memory)"
cargo bench --locked -p moat --bench stream 2>/dev/null | grep -E 'ms|MB|subscribers|frames'

step "web: first-route size, LCP and CLS"
node bench/web.mjs "http://127.0.0.1:$PORT" 7
