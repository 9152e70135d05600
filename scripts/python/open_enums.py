"""Makes the generated enums the document marks open (`x-open-enum: true`, docs/versioning.md) take a value
they do not list: a later minor version may add one, and a client of this one must not fail on it.

openapi-python-client generates every enum as a closed `StrEnum` (an unknown value raises ValueError
while a response is parsed) and has no option for open ones, so this step of scripts/python/generate.sh
adds `_missing_` to those classes: an unknown value becomes a member named UNKNOWN whose value is the
string sent. Usage: open_enums.py <openapi.yaml> <generated models folder>
"""

import re
import sys
from pathlib import Path

from ruamel.yaml import YAML

MISSING = '''
    @classmethod
    def _missing_(cls, value: object) -> "{name} | None":
        # An open enum (x-open-enum): a value added by a later minor version, kept as sent.
        if not isinstance(value, str):
            return None
        member = str.__new__(cls, value)
        member._name_ = "UNKNOWN"
        member._value_ = value
        return member
'''


def open_enum_classes(document: dict) -> list[str]:
    """The class names the generator gives the open enums: a component's name, or its owner's plus the property's."""
    names = []
    for name, schema in document["components"]["schemas"].items():
        if schema.get("x-open-enum") is True:
            names.append(name)
        for prop, prop_schema in (schema.get("properties") or {}).items():
            if isinstance(prop_schema, dict) and prop_schema.get("x-open-enum") is True:
                names.append(name + prop[0].upper() + prop[1:])
    return names


def main(document_path: str, models_dir: str) -> None:
    document = YAML(typ="safe").load(Path(document_path).read_text(encoding="utf-8"))
    models = Path(models_dir)
    for name in open_enum_classes(document):
        declaration = re.compile(rf"^class {name}\(StrEnum\):$", re.M)
        found = [path for path in models.glob("*.py") if declaration.search(path.read_text(encoding="utf-8"))]
        if len(found) != 1:
            sys.exit(f"open_enums: no generated enum class {name} for an x-open-enum schema")
        source = found[0].read_text(encoding="utf-8")
        if "def _missing_" not in source:
            found[0].write_text(source.rstrip("\n") + "\n" + MISSING.format(name=name), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
