#!/usr/bin/env bash
# The Python SDK's tests (sdk-python/tests/, pytest) in the test command: `npm run test:python`.
# They start the real server themselves on 127.0.0.1 (SQLite, then a fresh PostgreSQL database).
# Sets up .venv-python/ when it is missing (scripts/python/setup.sh); when that is impossible (no
# python3), says so and passes as SKIPPED. Counts land in .test-results/pytest.xml (JUnit), which
# scripts/test-summary.mjs folds into the test command's closing line.
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV=.venv-python
RESULTS=.test-results/pytest.xml
mkdir -p .test-results
rm -f "$RESULTS"
if [ ! -x "$VENV/bin/pytest" ]; then
  if ! command -v python3 >/dev/null || ! bash scripts/python/setup.sh; then
    echo "python sdk tests: SKIPPED, .venv-python/ could not be set up; set it up with: bash scripts/python/setup.sh"
    exit 0
  fi
fi
# The hand-written modules and the tests (the generated ones are excluded in sdk-python/pyproject.toml).
(cd sdk-python && "../$VENV/bin/ruff" check --quiet . && "../$VENV/bin/ruff" format --check --quiet .) || {
  echo "python sdk tests: ruff found problems in sdk-python/ (see above; ruff format fixes the layout)" >&2
  exit 1
}
echo "python sdk tests: pytest on SQLite and PostgreSQL"
# pytest closes with "=== N passed in Xs ===" (or, quiet, "N passed in Xs"), which a CI reading pytest's
# closing line would take for the whole command's result: the same words in another form (as
# scripts/conformance.sh does for Schemathesis); the test command's own closing line counts these tests.
status=0
(cd sdk-python && "../$VENV/bin/pytest" -q -p no:cacheprovider --color=no -o junit_family=xunit2 \
  --junitxml="../$RESULTS" "$@") 2>&1 | sed -u -E \
  -e 's/^=* *(([0-9]+ [a-z]+(, )?)+) in ([0-9.]+)s( \([0-9:]+\))? *=*$/python sdk tests finished after \4 s: \1/' \
  -e 's/^=+ (.+) =+$/--- \1 ---/' || status=$?
exit "$status"
