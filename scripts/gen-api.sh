#!/usr/bin/env bash
# Regenerates the web app's API types from the server's OpenAPI document.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
cargo run --quiet -p moat -- openapi >web/src/shared/api/openapi.json
(cd web && npm run --silent gen:api)
echo "regenerated web/src/shared/api/openapi.json and schema.d.ts"
