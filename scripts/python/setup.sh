#!/usr/bin/env bash
# Makes .venv-python/ (ignored by git) with the pinned tools of scripts/python/requirements.txt and the
# Python SDK (sdk-python/, editable), for `npm run generate` and the SDK's tests in `npm test`.
# Needs Python 3.11+ (the generated code uses typing.Self) with venv; on Debian/Ubuntu, as root, python3-venv is installed when missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV=.venv-python
if ! command -v python3 >/dev/null; then echo "python setup: python3 is needed" >&2; exit 1; fi
if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then echo "python setup: Python 3.11+ is needed" >&2; exit 1; fi
if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get install -y -qq python3-venv >/dev/null || { apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null; }
  else
    echo "python setup: Python's venv module is missing (Debian/Ubuntu: apt-get install python3-venv)" >&2
    exit 1
  fi
fi
[ -x "$VENV/bin/pip" ] || python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet --disable-pip-version-check -r scripts/python/requirements.txt
"$VENV/bin/pip" install --quiet --disable-pip-version-check --no-deps -e ./sdk-python
echo "python setup: $("$VENV/bin/openapi-python-client" --version), $("$VENV/bin/pytest" --version 2>&1) in $VENV"
