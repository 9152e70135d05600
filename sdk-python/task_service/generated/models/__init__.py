"""Contains all the data models used in inputs/outputs"""

from .account import Account
from .api_token import ApiToken
from .api_token_created import ApiTokenCreated
from .api_token_list import ApiTokenList
from .authorization_list import AuthorizationList
from .authorization_list_items_item import AuthorizationListItemsItem
from .authorization_server_metadata import AuthorizationServerMetadata
from .budget_usage import BudgetUsage
from .cap_usage import CapUsage
from .connector import Connector
from .connector_account import ConnectorAccount
from .connector_account_event import ConnectorAccountEvent
from .connector_account_event_type import ConnectorAccountEventType
from .connector_account_list import ConnectorAccountList
from .connector_list import ConnectorList
from .connector_type import ConnectorType
from .create_api_token_request import CreateApiTokenRequest
from .delete_account_request import DeleteAccountRequest
from .device_authorization_request import DeviceAuthorizationRequest
from .device_authorization_response import DeviceAuthorizationResponse
from .device_verification_form import DeviceVerificationForm
from .device_verification_form_decision import DeviceVerificationFormDecision
from .error import Error
from .error_code import ErrorCode
from .error_quota import ErrorQuota
from .error_window import ErrorWindow
from .github_credentials import GithubCredentials
from .health import Health
from .health_status import HealthStatus
from .ical_credentials import IcalCredentials
from .json_rpc_message import JsonRpcMessage
from .json_rpc_message_error import JsonRpcMessageError
from .json_rpc_message_params import JsonRpcMessageParams
from .json_rpc_message_result import JsonRpcMessageResult
from .json_rpc_version import JsonRpcVersion
from .label_list import LabelList
from .label_list_items_item import LabelListItemsItem
from .list_tasks_priority_item import ListTasksPriorityItem
from .list_tasks_sort import ListTasksSort
from .list_tasks_status import ListTasksStatus
from .login_request import LoginRequest
from .o_auth_authorization_form import OAuthAuthorizationForm
from .o_auth_authorization_form_decision import OAuthAuthorizationFormDecision
from .o_auth_client_registration import OAuthClientRegistration
from .o_auth_client_registration_application_type import (
    OAuthClientRegistrationApplicationType,
)
from .o_auth_client_registration_request import OAuthClientRegistrationRequest
from .o_auth_client_registration_request_application_type import (
    OAuthClientRegistrationRequestApplicationType,
)
from .o_auth_client_registration_request_grant_types_item import (
    OAuthClientRegistrationRequestGrantTypesItem,
)
from .o_auth_client_registration_request_response_types_item import (
    OAuthClientRegistrationRequestResponseTypesItem,
)
from .o_auth_client_registration_request_token_endpoint_auth_method import (
    OAuthClientRegistrationRequestTokenEndpointAuthMethod,
)
from .o_auth_client_registration_token_endpoint_auth_method import (
    OAuthClientRegistrationTokenEndpointAuthMethod,
)
from .o_auth_error import OAuthError
from .o_auth_revoke_request import OAuthRevokeRequest
from .o_auth_token_request import OAuthTokenRequest
from .o_auth_token_response import OAuthTokenResponse
from .o_auth_token_response_token_type import OAuthTokenResponseTokenType
from .open_api_document import OpenApiDocument
from .post_mcp_message_response_400 import PostMcpMessageResponse400
from .post_mcp_message_response_406 import PostMcpMessageResponse406
from .post_mcp_message_response_415 import PostMcpMessageResponse415
from .priority import Priority
from .protected_resource_metadata import ProtectedResourceMetadata
from .readiness import Readiness
from .readiness_checks import ReadinessChecks
from .readiness_checks_database import ReadinessChecksDatabase
from .readiness_checks_redis import ReadinessChecksRedis
from .readiness_status import ReadinessStatus
from .refresh_request import RefreshRequest
from .register_request import RegisterRequest
from .scope import Scope
from .session_mode import SessionMode
from .sync_job import SyncJob
from .sync_job_finished_event import SyncJobFinishedEvent
from .sync_job_finished_event_type import SyncJobFinishedEventType
from .sync_job_list import SyncJobList
from .sync_job_status import SyncJobStatus
from .task import Task
from .task_change_list import TaskChangeList
from .task_create import TaskCreate
from .task_deleted import TaskDeleted
from .task_deleted_event import TaskDeletedEvent
from .task_deleted_event_data import TaskDeletedEventData
from .task_deleted_event_type import TaskDeletedEventType
from .task_event import TaskEvent
from .task_event_type import TaskEventType
from .task_list import TaskList
from .task_source import TaskSource
from .task_status import TaskStatus
from .task_update import TaskUpdate
from .task_upserted import TaskUpserted
from .token_pair import TokenPair
from .token_pair_token_type import TokenPairTokenType
from .usage import Usage
from .usage_connector_accounts_item import UsageConnectorAccountsItem
from .usage_rate_limits import UsageRateLimits
from .validation_detail import ValidationDetail
from .webhook import Webhook
from .webhook_create import WebhookCreate
from .webhook_created import WebhookCreated
from .webhook_delivery import WebhookDelivery
from .webhook_delivery_event_type import WebhookDeliveryEventType
from .webhook_delivery_list import WebhookDeliveryList
from .webhook_delivery_status import WebhookDeliveryStatus
from .webhook_event_type import WebhookEventType
from .webhook_list import WebhookList
from .webhook_ping_event import WebhookPingEvent
from .webhook_ping_event_data import WebhookPingEventData
from .webhook_ping_event_type import WebhookPingEventType
from .webhook_update import WebhookUpdate
from .window_usage import WindowUsage

__all__ = (
    "Account",
    "ApiToken",
    "ApiTokenCreated",
    "ApiTokenList",
    "AuthorizationList",
    "AuthorizationListItemsItem",
    "AuthorizationServerMetadata",
    "BudgetUsage",
    "CapUsage",
    "Connector",
    "ConnectorAccount",
    "ConnectorAccountEvent",
    "ConnectorAccountEventType",
    "ConnectorAccountList",
    "ConnectorList",
    "ConnectorType",
    "CreateApiTokenRequest",
    "DeleteAccountRequest",
    "DeviceAuthorizationRequest",
    "DeviceAuthorizationResponse",
    "DeviceVerificationForm",
    "DeviceVerificationFormDecision",
    "Error",
    "ErrorCode",
    "ErrorQuota",
    "ErrorWindow",
    "GithubCredentials",
    "Health",
    "HealthStatus",
    "IcalCredentials",
    "JsonRpcMessage",
    "JsonRpcMessageError",
    "JsonRpcMessageParams",
    "JsonRpcMessageResult",
    "JsonRpcVersion",
    "LabelList",
    "LabelListItemsItem",
    "ListTasksPriorityItem",
    "ListTasksSort",
    "ListTasksStatus",
    "LoginRequest",
    "OAuthAuthorizationForm",
    "OAuthAuthorizationFormDecision",
    "OAuthClientRegistration",
    "OAuthClientRegistrationApplicationType",
    "OAuthClientRegistrationRequest",
    "OAuthClientRegistrationRequestApplicationType",
    "OAuthClientRegistrationRequestGrantTypesItem",
    "OAuthClientRegistrationRequestResponseTypesItem",
    "OAuthClientRegistrationRequestTokenEndpointAuthMethod",
    "OAuthClientRegistrationTokenEndpointAuthMethod",
    "OAuthError",
    "OAuthRevokeRequest",
    "OAuthTokenRequest",
    "OAuthTokenResponse",
    "OAuthTokenResponseTokenType",
    "OpenApiDocument",
    "PostMcpMessageResponse400",
    "PostMcpMessageResponse406",
    "PostMcpMessageResponse415",
    "Priority",
    "ProtectedResourceMetadata",
    "Readiness",
    "ReadinessChecks",
    "ReadinessChecksDatabase",
    "ReadinessChecksRedis",
    "ReadinessStatus",
    "RefreshRequest",
    "RegisterRequest",
    "Scope",
    "SessionMode",
    "SyncJob",
    "SyncJobFinishedEvent",
    "SyncJobFinishedEventType",
    "SyncJobList",
    "SyncJobStatus",
    "Task",
    "TaskChangeList",
    "TaskCreate",
    "TaskDeleted",
    "TaskDeletedEvent",
    "TaskDeletedEventData",
    "TaskDeletedEventType",
    "TaskEvent",
    "TaskEventType",
    "TaskList",
    "TaskSource",
    "TaskStatus",
    "TaskUpdate",
    "TaskUpserted",
    "TokenPair",
    "TokenPairTokenType",
    "Usage",
    "UsageConnectorAccountsItem",
    "UsageRateLimits",
    "ValidationDetail",
    "Webhook",
    "WebhookCreate",
    "WebhookCreated",
    "WebhookDelivery",
    "WebhookDeliveryEventType",
    "WebhookDeliveryList",
    "WebhookDeliveryStatus",
    "WebhookEventType",
    "WebhookList",
    "WebhookPingEvent",
    "WebhookPingEventData",
    "WebhookPingEventType",
    "WebhookUpdate",
    "WindowUsage",
)
