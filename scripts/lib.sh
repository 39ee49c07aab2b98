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

build_web() {
  npm_install "$ROOT/web"
  step "building the web app"
  (cd "$ROOT/web" && npm run --silent build)
}
