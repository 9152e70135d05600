"""The document's schemas as Python classes (generated: task_service/generated/models/)."""

from .generated.models import *  # noqa: F403
from .generated.models import __all__  # noqa: F401
