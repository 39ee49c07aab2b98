# Shared helpers for the project scripts (sourced, not run).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }

need() {
  command -v "$1" >/dev/null 2>&1 || { echo "moat: '$1' is required: $2" >&2; exit 1; }
}

check_toolchains() {
  need cargo "install the Rust toolchain (https://rustup.rs)"
  need node "install Node.js 20.19 or newer"
  need npm "install npm (comes with Node.js)"
  local major minor
  IFS=. read -r major minor _ <<<"$(node --version | tr -d v)"
  if (( major < 20 || (major == 20 && minor < 19) )); then
    echo "moat: Node.js 20.19 or newer is required (found $(node --version))" >&2; exit 1
  fi
}

# Installs a package folder's npm dependencies when its lock file or its package.json
# (install scripts: web/'s postinstall patches the pinned recording client) changed
# since the last install (npm ci is exact and reproducible).
npm_install() {
  local dir="$1" stamp="$1/node_modules/.moat-lock-hash" hash
  hash="$(cat "$dir/package-lock.json" "$dir/package.json" | sha256sum | cut -d' ' -f1)"
  if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$hash" ]]; then
    step "npm ci ($dir)"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$hash" >"$stamp"
  fi
}

# s3s-fs, the S3-compatible server the media store's S3 tests start
# (crates/moat-server/tests/media.rs), cached outside the clone: 0.12.0 is the newest
# whose rust-version (1.86) fits Moat's 1.89. Installing takes about 5 minutes on two
# cores, once per machine.
S3S_FS_VERSION="0.12.0"
TOOLS_DIR="${MOAT_TOOLS_DIR:-/var/cache/moat-ci/tools}"
install_s3s_fs() {
  local bin="$TOOLS_DIR/bin/s3s-fs"
  if [[ ! -x "$bin" ]] || [[ "$("$bin" --version 2>/dev/null)" != *"$S3S_FS_VERSION"* ]]; then
    step "installing s3s-fs $S3S_FS_VERSION into $TOOLS_DIR (the media store's S3 tests)"
    mkdir -p "$TOOLS_DIR"
    cargo install s3s-fs --version "$S3S_FS_VERSION" --locked --features binary --root "$TOOLS_DIR"
  fi
  export MOAT_TEST_S3S_FS="$bin"
}

build_web() {
  npm_install "$ROOT/web"
  step "building the web app"
  (cd "$ROOT/web" && npm run --silent build)
}
