"""The README's self-contained Python blocks name nothing they do not import or define (ruff's F821)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

README = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
RUFF = Path(sys.executable).parent / "ruff"


def python_block_under(heading: str) -> str:
    section = README.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, f"no Python block under {heading}"
    return match.group(1)


@pytest.mark.parametrize("heading", ["Rate limits (429)"])
def test_a_snippet_imports_what_it_uses(heading: str) -> None:
    checked = subprocess.run(
        [str(RUFF), "check", "--isolated", "--select", "F821,F401", "--stdin-filename", "snippet.py", "-"],
        input=python_block_under(heading),
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stdout


def test_the_readme_opens_a_service_with_a_with_statement() -> None:
    assert 'with TaskService("http://localhost:3000"' in python_block_under(
        "Sign in (a first-party script or app: email and password)"
    )
