#!/usr/bin/env bash
# Regenerates sdk-python/task_service/generated/ from openapi/openapi.yaml with the pinned
# openapi-python-client (part of `npm run generate` and `npm run check:generated`). Only that directory is
# rewritten: the hand-written modules beside it (sdk-python/task_service/*.py) are never touched.
# Sets up .venv-python/ first when it is missing (scripts/python/setup.sh); says SKIPPED when it cannot. Fails on any generator
# warning but the one explained in sdk-python/README.md (GET /openapi.yaml's YAML answer).
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV=.venv-python
OUT=sdk-python/task_service/generated
if [ ! -x "$VENV/bin/openapi-python-client" ] && ! bash scripts/python/setup.sh >/dev/null; then
  echo "generate (python): SKIPPED, .venv-python/ could not be set up (Python 3.11+ with venv is needed); sdk-python/ was neither regenerated nor checked"
  exit 0
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# The post-hooks (ruff) are looked up on PATH: the venv's pinned ruff, never another one; no cache in the output.
if ! PATH="$PWD/$VENV/bin:$PATH" RUFF_NO_CACHE=true "$VENV/bin/openapi-python-client" generate \
  --path openapi/openapi.yaml --config sdk-python/openapi-python-client.yaml --meta none \
  --output-path "$OUT" --overwrite >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi
unexpected=$(grep -E '^WARNING ' "$log" | grep -v '^WARNING parsing GET /openapi.yaml within operations\.$' || true)
if [ -n "$unexpected" ] || grep -q 'not in PATH\|Error' "$log"; then
  cat "$log" >&2
  echo "generate (python): the generator warned about more than GET /openapi.yaml (see above); fix the document or sdk-python/openapi-python-client.yaml" >&2
  exit 1
fi
# Open enums (x-open-enum) take a value they do not list: scripts/python/open_enums.py says why.
"$VENV/bin/python" scripts/python/open_enums.py openapi/openapi.yaml "$OUT/models"
"$VENV/bin/ruff" format --isolated --quiet "$OUT/models"
