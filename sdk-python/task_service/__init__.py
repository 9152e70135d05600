"""Task Service SDK for Python.

`task_service.generated` is generated from openapi/openapi.yaml (never edit it: `npm run generate`);
the modules beside it are written by hand: the session (refresh, 429 waits), budgets, webhooks.
"""

from .client import Authorization, TaskService
from .deprecation import CONTRACT_VERSION, TaskServiceDeprecationWarning
from .errors import ApiError, OAuthFlowError
from .generated.types import UNSET
from .rate_limits import DEFAULT_RETRY_AFTER_SECONDS, RateLimits, Window
from .session import IssuedTokens, RetryPolicy
from .webhooks import WebhookVerificationError, sign_webhook, verify_webhook

__all__ = [
    "CONTRACT_VERSION",
    "DEFAULT_RETRY_AFTER_SECONDS",
    "UNSET",
    "ApiError",
    "Authorization",
    "IssuedTokens",
    "OAuthFlowError",
    "RateLimits",
    "RetryPolicy",
    "TaskService",
    "TaskServiceDeprecationWarning",
    "WebhookVerificationError",
    "Window",
    "sign_webhook",
    "verify_webhook",
]
