#!/usr/bin/env bash
# The production path, outside a container (no engine runs on CI's machines): docs/operating.md's
# build block as it is (a clean clone, every dependency, the build, then production dependencies
# alone: under 150 MB, without tsx, the Prisma CLI or TypeScript), then the build started with node
# alone on PostgreSQL + Redis: /readyz, an authenticated route and the GraphiQL page probed, the
# banner read, SIGTERM, and an exit 0.
# Usage: scripts/check-production-path.sh <postgresql-url> <redis-url>
set -euo pipefail
install_limit_mb=150
database_url="$1"
redis_url="$2"
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
schema="production_path_$$"
port="$(node -e 'const s = require("node:net").createServer().listen(0, () => { console.log(s.address().port); s.close(); })')"
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill -KILL "$server_pid" 2>/dev/null || true
  psql -q "$database_url" -c "DROP SCHEMA IF EXISTS $schema CASCADE" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

echo "-- docs/operating.md's build block, as it is: clone, npm ci, npm run build, production dependencies"
# The first sh block under "## Build and start", run in $work with REPO set to this repository.
build_block="$(awk '/^## Build and start/ { section = 1 } section && /^```sh$/ { inside = 1; next }
  inside && /^```$/ { exit } inside { print }' "$repo/docs/operating.md")"
[ -n "$build_block" ] || { echo "docs/operating.md has no build block"; exit 1; }
(cd "$work" && REPO="$repo" npm_config_loglevel=error npm_config_audit=false npm_config_fund=false \
  bash -euo pipefail -c "$build_block" >"$work/build.log" 2>&1) ||
  { cat "$work/build.log"; echo "the build block failed"; exit 1; }
install_mb="$(du -sm "$work/api/node_modules" | cut -f1)"
echo "production install: ${install_mb} MB in node_modules ($(ls "$work/api/node_modules" | wc -l) entries)"
for tool in tsx prisma typescript effect @prisma/client; do
  [ ! -e "$work/api/node_modules/$tool" ] || { echo "production install holds $tool"; exit 1; }
done
[ "$install_mb" -lt "$install_limit_mb" ] || { echo "production install over ${install_limit_mb} MB"; exit 1; }
echo "the build: $(du -sm "$work/api/dist" | cut -f1) MB in dist"

secret="production-path-dashboard-secret-0123456789"
cd "$work/api"
# GraphiQL on, as an operator may turn it: its code is loaded from the production install on the
# page's first request, not from the bundle.
GRAPHIQL=true NODE_ENV=production PORT=$port DATABASE_URL="$database_url" DATABASE_SCHEMA="$schema" \
  REDIS_URL="$redis_url" DASHBOARD_JWT_SECRET="$secret" PUBLIC_BASE_URL=https://api.example.com \
  node dist/server.js >"$work/server.log" 2>&1 &
server_pid=$!

base="http://127.0.0.1:$port"
for _ in $(seq 1 120); do
  curl -sf "$base/readyz" >/dev/null && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log"; exit 1; }
  sleep 0.5
done
curl -sf "$base/readyz"
echo
grep -q "listening on .*:$port, public address https://api.example.com$" "$work/server.log" ||
  { echo "the banner names no bound address and public address"; cat "$work/server.log"; exit 1; }
echo "banner: $(grep -m1 "listening on" "$work/server.log")"

# An account (as the back office writes it), a dashboard token for it, a key made over GraphQL,
# and the key on the partner catalog.
user_id="$(node -e 'console.log(require("node:crypto").randomUUID())')"
psql -q "$database_url" -c "SET search_path = $schema; INSERT INTO \"User\" (id, email, name, role)
  VALUES ('$user_id', 'ops-$user_id@example.com', 'Production path', 'PARTNER')" >/dev/null
# The token as docs/operating.md says to make the first one: the build's own script.
token="$(NODE_ENV=production DATABASE_URL="$database_url" DASHBOARD_JWT_SECRET="$secret" \
  PUBLIC_BASE_URL=https://api.example.com node dist/token.js "$user_id" 5m)"
key="$(curl -sf "$base/graphql" -H "x-api-token: $token" -H 'content-type: application/json' \
  -d '{"query":"mutation { createApiKey(input: { name: \"production path\" }) { apiKey } }"}' |
  node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).data.createApiKey.apiKey))')"
status="$(curl -s -o /dev/null -w '%{http_code}' -H "x-api-key: $key" "$base/api/partner/organizations")"
[ "$status" = 200 ] || { echo "partner catalog answered $status"; cat "$work/server.log"; exit 1; }
echo "GET /api/partner/organizations with the new key: 200"
# Saved first: `grep -q` stops reading at the match, and under pipefail curl's failed write to the
# closed pipe would fail the check.
curl -sf -H 'accept: text/html' -o "$work/graphiql.html" "$base/graphql" &&
  grep -q renderYogaGraphiQL "$work/graphiql.html" ||
  { echo "GET /graphql served no GraphiQL page"; cat "$work/server.log"; exit 1; }
echo "GET /graphql from a browser: the GraphiQL page"

kill -TERM "$server_pid"
code=0
wait "$server_pid" || code=$?
server_pid=""
[ "$code" = 0 ] || { echo "exit code $code after SIGTERM"; cat "$work/server.log"; exit 1; }
echo "SIGTERM: exited 0"
