#!/usr/bin/env bash
# The container's production path, outside a container (no engine runs on CI's machines): build in
# one clean clone, install production dependencies only in another, copy the build there, start it
# with node alone on PostgreSQL + Redis, probe /readyz and an authenticated route, stop it with
# SIGTERM and see it exit 0. Usage: scripts/check-production-path.sh <postgresql-url> <redis-url>
set -euo pipefail
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

echo "-- build stage: all dependencies, npm run build"
git clone -q "$repo" "$work/build"
(cd "$work/build" && npm ci --no-audit --no-fund --loglevel=error && npm run -s build)

echo "-- runtime stage: production dependencies only, no install scripts, the build copied in"
git clone -q "$repo" "$work/runtime"
(cd "$work/runtime" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error)
cp -r "$work/build/dist" "$work/runtime/dist"

secret="production-path-dashboard-secret-0123456789"
cd "$work/runtime"
NODE_ENV=production PORT=$port DATABASE_URL="$database_url" DATABASE_SCHEMA="$schema" \
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

# An account (as the back office writes it), a dashboard token for it, a key made over GraphQL,
# and the key on the partner catalog.
user_id="$(node -e 'console.log(require("node:crypto").randomUUID())')"
psql -q "$database_url" -c "SET search_path = $schema; INSERT INTO \"User\" (id, email, name, role)
  VALUES ('$user_id', 'ops-$user_id@example.com', 'Production path', 'PARTNER')" >/dev/null
token="$(USER_ID="$user_id" SECRET="$secret" node -e '
  const { SignJWT } = require("jose");
  new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setSubject(process.env.USER_ID)
    .setIssuedAt().setExpirationTime("5m").sign(new TextEncoder().encode(process.env.SECRET))
    .then(console.log);')"
key="$(curl -sf "$base/graphql" -H "x-api-token: $token" -H 'content-type: application/json' \
  -d '{"query":"mutation { createApiKey(input: { name: \"production path\" }) { apiKey } }"}' |
  node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).data.createApiKey.apiKey))')"
status="$(curl -s -o /dev/null -w '%{http_code}' -H "x-api-key: $key" "$base/api/partner/organizations")"
[ "$status" = 200 ] || { echo "partner catalog answered $status"; cat "$work/server.log"; exit 1; }
echo "GET /api/partner/organizations with the new key: 200"

kill -TERM "$server_pid"
code=0
wait "$server_pid" || code=$?
server_pid=""
[ "$code" = 0 ] || { echo "exit code $code after SIGTERM"; cat "$work/server.log"; exit 1; }
echo "SIGTERM: exited 0"
