#!/usr/bin/env bash
# Runs Moat on its embedded default: builds the web app and the server, then starts
# it on http://127.0.0.1:8080 with SQLite under ./data/ (migrated at start).
# Extra arguments go to `moat` (e.g. --port 9000).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
check_toolchains
build_web
step "building moat (release)"
(cd "$ROOT" && cargo build --release --locked -p moat)
step "starting moat"
cd "$ROOT"
exec "$TARGET_DIR/release/moat" --data-dir "$ROOT/data" "$@"
