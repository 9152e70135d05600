#!/usr/bin/env bash
# Installs the pinned Schemathesis into .venv-conformance/ (ignored by git) for `npm run conformance`.
# Needs Python 3.10+ with venv; on Debian/Ubuntu, as root, python3-venv is installed when missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV=.venv-conformance
if ! command -v python3 >/dev/null; then echo "install: python3 is needed" >&2; exit 1; fi
if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get install -y -qq python3-venv >/dev/null || { apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null; }
  else
    echo "install: Python's venv module is missing (Debian/Ubuntu: apt-get install python3-venv)" >&2
    exit 1
  fi
fi
[ -x "$VENV/bin/pip" ] || python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet --disable-pip-version-check -r scripts/conformance/requirements.txt
"$VENV/bin/st" --version
