#!/usr/bin/env bash
# Runs every test: Rust (unit, integration, storage on SQLite and, when
# MOAT_TEST_POSTGRES_URL is set, PostgreSQL), the web unit tests, and the browser
# tests in headless Chromium against the real server.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
check_toolchains

if ! command -v chromium >/dev/null 2>&1; then
  if [[ $(id -u) -eq 0 ]]; then
    step "installing Debian's chromium for the browser tests"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
  else
    echo "moat: the browser tests need Chromium. Install it with:" >&2
    echo "  sudo apt-get install -y chromium fonts-noto-cjk" >&2
    exit 1
  fi
fi
# The cluster test (crates/moat/tests/cluster.rs, through scripts/cluster.sh) runs two
# instances behind Debian's HAProxy, sharing a nats-server; the offline news test
# (e2e/tests/news-offline.test.mjs) brings up the loopback of a network namespace with
# iproute2's `ip`.
for pair in haproxy:haproxy nats-server:nats-server ip:iproute2; do
  cmd=${pair%%:*}
  pkg=${pair##*:}
  if ! command -v "$cmd" >/dev/null 2>&1; then
    if [[ $(id -u) -eq 0 ]]; then
      step "installing Debian's $pkg for the tests"
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >/dev/null \
        || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >/dev/null; }
    else
      echo "moat: the tests need $cmd. Install it with:" >&2
      echo "  sudo apt-get install -y $pkg" >&2
      exit 1
    fi
  fi
done
if [[ -z "${MOAT_TEST_POSTGRES_URL:-}" ]]; then
  echo "note: MOAT_TEST_POSTGRES_URL is not set; storage tests run on SQLite only."
  echo "      (e.g. MOAT_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test)"
fi

cd "$ROOT"
step "the declared Rust version fits every locked package"
node scripts/check-rust-version.mjs
step "cargo fmt --check"
cargo fmt --all --check
step "cargo clippy"
cargo clippy --locked --all-targets -- -D warnings
# The web build comes first: the server's tests check the app built into the binary.
build_web
step "web: the first page's size budget (scripts/bundle-budget.mjs, the build's manifest)"
(cd web && node scripts/bundle-budget.mjs)
step "web lint (ESLint: types, hooks, a11y, tests, layer boundaries, cycles)"
(cd web && npm run lint)
install_s3s_fs
step "Rust tests"
cargo test --locked --workspace

step "web unit tests"
(cd web && npx vitest run)

step "browser tests (headless Chromium)"
cargo build --locked -p moat
npm_install "$ROOT/e2e"
(cd e2e && MOAT_BIN="$TARGET_DIR/debug/moat" npm test --silent)
step "all tests passed"
