#!/usr/bin/env bash
# Checks that the server answers as openapi/openapi.yaml says, with Schemathesis (`npm run conformance`).
#
# Without CONFORMANCE_BASE_URL it starts the server from this checkout on 127.0.0.1 on a fresh database
# (SQLite; PostgreSQL with CONFORMANCE_DATABASE=postgres), with budgets high enough that the run is not
# drowned in 429s, outgoing requests limited to loopback (OUTBOUND_LOOPBACK_ONLY) and a local iCalendar
# feed to connect and sync. Every request then goes to 127.0.0.1 only: Schemathesis's base URL is the
# local server, and the server refuses to connect anywhere but loopback.
# With CONFORMANCE_BASE_URL it checks that deployment instead (see docs/conformance.md,
# "Against a deployment"), signed in as CONFORMANCE_EMAIL / CONFORMANCE_PASSWORD or as a fresh account it registers.
#
# Three passes, one per way of signing in: API token and OAuth access token (examples and coverage), then
# bearer access token (every phase: examples, coverage, fuzzing and the stateful phase following the
# document's links; it signs in again by itself when its token expires). Operations that would end the
# run's own credentials are left out: DELETE /me (the account) always; revoking API tokens and withdrawing
# OAuth apps in the API-token and OAuth passes (the OAuth pass's token comes from an app). The local server
# issues access tokens for an hour, so the fixture's OAuth token outlives the run. POST /auth/logout and /oauth/revoke stay in: they only
# ever see generated tokens.
#
# Options: --docker (or CONFORMANCE_DOCKER=1) runs the official Schemathesis image instead of the virtual
# environment; --if-installed skips (and passes) when Schemathesis is not installed.
# Settings: CONFORMANCE_SEED (fixed by default), CONFORMANCE_MAX_EXAMPLES (per operation and phase),
# CONFORMANCE_DATABASE (sqlite | postgres), TEST_POSTGRES_URL (PostgreSQL admin URL), CONFORMANCE_STRICT=1
# (the positive-data allowances of schemathesis.toml set back to the defaults, to list which operations refuse
# schema-valid input).
# Exits non-zero when any check fails; the report is printed, JUnit XML lands in .conformance/<sqlite|postgres|deployment>/.
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=$(sed -n 's/^schemathesis==//p' scripts/conformance/requirements.txt)
VENV=.venv-conformance
SEED=${CONFORMANCE_SEED:-20261123}
MAX_EXAMPLES=${CONFORMANCE_MAX_EXAMPLES:-50}
DATABASE=${CONFORMANCE_DATABASE:-sqlite}
POSTGRES_ADMIN_URL=${TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}
USE_DOCKER=${CONFORMANCE_DOCKER:-0}
IF_INSTALLED=0
for arg in "$@"; do
  case "$arg" in
    --docker) USE_DOCKER=1 ;;
    --if-installed) IF_INSTALLED=1 ;;
    --postgres) DATABASE=postgres ;;
    *) echo "conformance: unknown option $arg" >&2; exit 2 ;;
  esac
done

if [ "$USE_DOCKER" = 1 ]; then
  # Host networking: the container's 127.0.0.1 is this machine's. The config files read the credentials
  # from the environment, so it is passed in by name (values never on the command line).
  st() {
    docker run --rm --network host -v "$PWD:/project" -w /project \
      -e CONFORMANCE_EMAIL_USED -e CONFORMANCE_PASSWORD_USED -e CONFORMANCE_API_TOKEN -e CONFORMANCE_OAUTH_TOKEN \
      -e CONFORMANCE_CONNECTOR_ACCOUNT_ID -e SCHEMATHESIS_HOOKS "${CONFORMANCE_DOCKER_IMAGE:-schemathesis/schemathesis:v$SCHEMATHESIS_VERSION}" "$@"
  }
elif [ -x "$VENV/bin/st" ]; then
  st() { "$VENV/bin/st" "$@"; }
else
  if [ "$IF_INSTALLED" = 1 ]; then
    echo "conformance: SKIPPED, Schemathesis is not installed; install it with: bash scripts/conformance/install.sh"
    exit 0
  fi
  echo "conformance: Schemathesis is not installed; install it with: bash scripts/conformance/install.sh (or use --docker)" >&2
  exit 1
fi

# A folder per target, so that runs on the two engines can go side by side (the test command does).
if [ -n "${CONFORMANCE_BASE_URL:-}" ]; then WORK=.conformance/deployment; else WORK=.conformance/$DATABASE; fi
rm -rf "$WORK" && mkdir -p "$WORK"
PIDS=()
DROP_DATABASE=""
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [ -n "$DROP_DATABASE" ]; then psql "$POSTGRES_ADMIN_URL" -qc "drop database if exists $DROP_DATABASE with (force)" >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT

if [ -n "${CONFORMANCE_BASE_URL:-}" ]; then
  BASE_URL=${CONFORMANCE_BASE_URL%/}
  FEED_FLAG=""
else
  if [ "$DATABASE" = postgres ]; then
    name="task_service_conformance_$(date +%s)_$$"
    psql "$POSTGRES_ADMIN_URL" -qc "create database $name" >/dev/null
    DROP_DATABASE=$name
    DATABASE_URL="${POSTGRES_ADMIN_URL%/*}/$name"
  else
    DATABASE_URL="sqlite:$PWD/$WORK/db.sqlite"
  fi
  limit=1000000
  : >"$WORK/server.log"
  env -u REDIS_URL NODE_ENV=test HOST=127.0.0.1 PORT=0 LOG_LEVEL=info DATABASE_URL="$DATABASE_URL" \
    JWT_SECRET="conformance-$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')" \
    CONNECTOR_SECRET_KEY="$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')" \
    OPENAPI_VALIDATE_RESPONSES=true CONNECTOR_ALLOW_PRIVATE_NETWORKS=true OUTBOUND_LOOPBACK_ONLY=true \
    RATE_LIMIT_BURST_PER_MINUTE=$limit RATE_LIMIT_SUSTAINED_PER_HOUR=$limit \
    RATE_LIMIT_CLIENT_BURST_PER_MINUTE=$limit RATE_LIMIT_CLIENT_SUSTAINED_PER_HOUR=$limit \
    RATE_LIMIT_STRICT_BURST_PER_MINUTE=$limit RATE_LIMIT_STRICT_SUSTAINED_PER_HOUR=$limit \
    RATE_LIMIT_REFRESH_BURST_PER_MINUTE=$limit RATE_LIMIT_REFRESH_SUSTAINED_PER_HOUR=$limit \
    LOGIN_MAX_FAILED_ATTEMPTS=$limit JWT_ACCESS_EXPIRES=3600 \
    node --import tsx src/main.ts >"$WORK/server.log" 2>&1 &
  PIDS+=($!)
  port=""
  for _ in $(seq 1 120); do
    port=$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' "$WORK/server.log" | head -1)
    [ -n "$port" ] && break
    kill -0 "${PIDS[0]}" 2>/dev/null || break
    sleep 0.5
  done
  if [ -z "$port" ]; then echo "conformance: the server did not start:" >&2; cat "$WORK/server.log" >&2; exit 1; fi
  BASE_URL="http://127.0.0.1:$port"
  FEED_FLAG="--feed"
fi
echo "conformance: $BASE_URL (${CONFORMANCE_BASE_URL:+a deployment}${CONFORMANCE_BASE_URL:-local server on $DATABASE}), Schemathesis $SCHEMATHESIS_VERSION, seed $SEED, up to $MAX_EXAMPLES examples per operation"

# The fixture keeps serving the local feed until the end of the run.
node --import tsx scripts/conformance/fixture.ts "$BASE_URL" $FEED_FLAG >"$WORK/fixture.json" 2>"$WORK/fixture.log" &
PIDS+=($!)
for _ in $(seq 1 120); do [ -s "$WORK/fixture.json" ] && break; kill -0 "${PIDS[-1]}" 2>/dev/null || break; sleep 0.5; done
if [ ! -s "$WORK/fixture.json" ]; then echo "conformance: could not prepare the account:" >&2; cat "$WORK/fixture.log" >&2; exit 1; fi
field() { node -e 'const v = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))[process.argv[2]]; process.stdout.write(v ?? "")' "$WORK/fixture.json" "$1"; }
export CONFORMANCE_EMAIL_USED CONFORMANCE_PASSWORD_USED CONFORMANCE_API_TOKEN CONFORMANCE_OAUTH_TOKEN CONFORMANCE_CONNECTOR_ACCOUNT_ID
CONFORMANCE_EMAIL_USED=$(field email)
CONFORMANCE_PASSWORD_USED=$(field password)
CONFORMANCE_API_TOKEN=$(field apiToken)
CONFORMANCE_OAUTH_TOKEN=$(field oauthAccessToken)
# Without the local feed (a deployment), a loopback address nobody serves: refused by any SSRF guard.
FEED_URL=$(field feedUrl)
FEED_URL=${FEED_URL:-http://127.0.0.1:9/tasks.ics}
# Without a connected account (a deployment), a random id: those operations then check their 404s.
CONFORMANCE_CONNECTOR_ACCOUNT_ID=$(field connectorAccountId)
CONFORMANCE_CONNECTOR_ACCOUNT_ID=${CONFORMANCE_CONNECTOR_ACCOUNT_ID:-00000000-0000-4000-8000-000000000000}

# One config per pass: the shared settings plus how that pass signs in.
config_for() {
  local pass=$1 file="$WORK/$1.toml"
  # Strict: every operation back to Schemathesis's own expected statuses (2xx, 3xx, 401, 403, 404, 409, 429, 5xx).
  local strict=''
  [ "${CONFORMANCE_STRICT:-0}" = 1 ] && strict='s/^checks\.positive_data_acceptance\.expected-statuses = .*/checks.positive_data_acceptance.expected-statuses = ["2XX", "3XX", 401, 403, 404, 409, 429, "5XX"]/'
  sed -e "s|@FEED_URL@|$FEED_URL|" ${strict:+-e "$strict"} scripts/conformance/schemathesis.toml >"$file"
  case "$pass" in
    bearer) printf '\n[auth.dynamic.openapi.bearerAuth]\npath = "/auth/login"\npayload = { email = "${CONFORMANCE_EMAIL_USED}", password = "${CONFORMANCE_PASSWORD_USED}" }\nextract_selector = "/accessToken"\n' ;;
    api-token) printf '\n[auth.openapi.apiToken]\nbearer = "${CONFORMANCE_API_TOKEN}"\n' ;;
    oauth) printf '\n[auth.openapi.oauth2]\nbearer = "${CONFORMANCE_OAUTH_TOKEN}"\n' ;;
  esac >>"$file"
  echo "$file"
}

export SCHEMATHESIS_HOOKS=scripts/conformance/hooks.py

run_pass() {
  local pass=$1 phases=$2
  shift 2
  echo
  echo "--- conformance pass: $pass ($phases) ---"
  st --config-file "$(config_for "$pass")" run "$BASE_URL/openapi.json" \
    --url "$BASE_URL" --checks all --phases "$phases" --seed "$SEED" --max-examples "$MAX_EXAMPLES" \
    --workers 1 --no-color --request-timeout 20 --suppress-health-check all \
    --report junit --report-junit-path "$WORK/$pass.junit.xml" \
    --exclude-operation-id deleteMe "$@" 2>&1 | without_pytest_banner
}

# Schemathesis frames its report in pytest-style banners and closes it with pytest's closing line
# ("=== 2 warnings in 8.46s ==="), which counts no tests: a CI that reads pytest's closing line would take
# the whole test command for one that ran none. The same words without the pytest form; the test command's
# own closing line counts what ran.
without_pytest_banner() {
  sed -u -E -e 's/^=+ (.+) in ([0-9.]+)s =+$/conformance pass finished after \2 s: \1/' -e 's/^=+ (.+) =+$/--- \1 ---/'
}

# The token passes first, without disconnecting the fixture's connected account: the last pass may.
status=0
run_pass api-token examples,coverage --exclude-operation-id revokeApiToken --exclude-operation-id revokeAuthorization --exclude-operation-id disconnectAccount || status=1
run_pass oauth examples,coverage --exclude-operation-id revokeAuthorization --exclude-operation-id revokeApiToken --exclude-operation-id disconnectAccount || status=1
run_pass bearer examples,coverage,fuzzing,stateful || status=1
echo
if [ "$status" = 0 ]; then echo "conformance: PASSED (bearer, API token and OAuth passes)"; else echo "conformance: FAILED (see the reports above)"; fi
exit "$status"
