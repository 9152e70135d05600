from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.json_rpc_message import JsonRpcMessage
from ...models.post_mcp_message_response_400 import PostMcpMessageResponse400
from ...models.post_mcp_message_response_406 import PostMcpMessageResponse406
from ...models.post_mcp_message_response_415 import PostMcpMessageResponse415
from ...types import Response


def _get_kwargs(
    *,
    body: JsonRpcMessage,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/mcp",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    Any
    | Error
    | JsonRpcMessage
    | PostMcpMessageResponse400
    | PostMcpMessageResponse406
    | PostMcpMessageResponse415
    | None
):
    if response.status_code == 200:
        response_200 = JsonRpcMessage.from_dict(response.json())

        return response_200

    if response.status_code == 202:
        response_202 = cast(Any, None)
        return response_202

    if response.status_code == 400:
        response_400 = PostMcpMessageResponse400.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 406:
        response_406 = PostMcpMessageResponse406.from_dict(response.json())

        return response_406

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = PostMcpMessageResponse415.from_dict(response.json())

        return response_415

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    Any
    | Error
    | JsonRpcMessage
    | PostMcpMessageResponse400
    | PostMcpMessageResponse406
    | PostMcpMessageResponse415
]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: JsonRpcMessage,
) -> Response[
    Any
    | Error
    | JsonRpcMessage
    | PostMcpMessageResponse400
    | PostMcpMessageResponse406
    | PostMcpMessageResponse415
]:
    """The MCP server (Streamable HTTP, stateless)

     A Model Context Protocol server on the official SDK: one JSON-RPC message per POST,
    answered with one JSON body (`Accept` must list `application/json` and `text/event-stream`), no
    session (`Mcp-Session-Id` is neither given nor needed; `GET` and `DELETE /mcp` answer 405 with
    `Allow: POST`, as the transport prescribes for a stateless server). Protocol revision `2025-11-25`,
    older ones
    negotiated down. Tools: `list_tasks`, `get_task`, `create_task`, `update_task`, `delete_task`,
    `get_usage`, `list_connector_accounts`, `start_sync`, `get_sync_job`: each is the REST operation of
    the same name, its input schema made from this document's parameters and body schema, its result's
    `structuredContent` the REST response body (plus a one-line text), and it needs that operation's
    scope.

    Only access tokens issued for `{PUBLIC_URL}/mcp` (RFC 8707 `resource`) are accepted; the 401 points
    at
    `/.well-known/oauth-protected-resource/mcp`. Every POST spends the account budget and the OAuth
    client's own fence, like a REST call, and carries the rate-limit headers. A refused tool call (a
    spent
    budget, a missing scope, a cap, a bad argument) is still a 200: a tool result with `isError: true`
    and
    the common error body (`code`, and `retryAfterSeconds` and `window` for `RATE_LIMIT_EXCEEDED`) in
    `structuredContent`; a spent budget also sets `Retry-After`. Any other message over budget is a 429.

    DNS-rebinding protection: a `Host` other than `PUBLIC_URL`'s (loopback names when `PUBLIC_URL` is
    unset) is 403 `HOST_NOT_ALLOWED`, an `Origin` outside `CORS_ALLOWED_ORIGINS` 403
    `ORIGIN_NOT_ALLOWED`,
    before anything else (no budget spent).

    Args:
        body (JsonRpcMessage): A JSON-RPC 2.0 message of the Model Context Protocol (request,
            notification or response).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | JsonRpcMessage | PostMcpMessageResponse400 | PostMcpMessageResponse406 | PostMcpMessageResponse415]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: JsonRpcMessage,
) -> (
    Any
    | Error
    | JsonRpcMessage
    | PostMcpMessageResponse400
    | PostMcpMessageResponse406
    | PostMcpMessageResponse415
    | None
):
    """The MCP server (Streamable HTTP, stateless)

     A Model Context Protocol server on the official SDK: one JSON-RPC message per POST,
    answered with one JSON body (`Accept` must list `application/json` and `text/event-stream`), no
    session (`Mcp-Session-Id` is neither given nor needed; `GET` and `DELETE /mcp` answer 405 with
    `Allow: POST`, as the transport prescribes for a stateless server). Protocol revision `2025-11-25`,
    older ones
    negotiated down. Tools: `list_tasks`, `get_task`, `create_task`, `update_task`, `delete_task`,
    `get_usage`, `list_connector_accounts`, `start_sync`, `get_sync_job`: each is the REST operation of
    the same name, its input schema made from this document's parameters and body schema, its result's
    `structuredContent` the REST response body (plus a one-line text), and it needs that operation's
    scope.

    Only access tokens issued for `{PUBLIC_URL}/mcp` (RFC 8707 `resource`) are accepted; the 401 points
    at
    `/.well-known/oauth-protected-resource/mcp`. Every POST spends the account budget and the OAuth
    client's own fence, like a REST call, and carries the rate-limit headers. A refused tool call (a
    spent
    budget, a missing scope, a cap, a bad argument) is still a 200: a tool result with `isError: true`
    and
    the common error body (`code`, and `retryAfterSeconds` and `window` for `RATE_LIMIT_EXCEEDED`) in
    `structuredContent`; a spent budget also sets `Retry-After`. Any other message over budget is a 429.

    DNS-rebinding protection: a `Host` other than `PUBLIC_URL`'s (loopback names when `PUBLIC_URL` is
    unset) is 403 `HOST_NOT_ALLOWED`, an `Origin` outside `CORS_ALLOWED_ORIGINS` 403
    `ORIGIN_NOT_ALLOWED`,
    before anything else (no budget spent).

    Args:
        body (JsonRpcMessage): A JSON-RPC 2.0 message of the Model Context Protocol (request,
            notification or response).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | JsonRpcMessage | PostMcpMessageResponse400 | PostMcpMessageResponse406 | PostMcpMessageResponse415
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: JsonRpcMessage,
) -> Response[
    Any
    | Error
    | JsonRpcMessage
    | PostMcpMessageResponse400
    | PostMcpMessageResponse406
    | PostMcpMessageResponse415
]:
    """The MCP server (Streamable HTTP, stateless)

     A Model Context Protocol server on the official SDK: one JSON-RPC message per POST,
    answered with one JSON body (`Accept` must list `application/json` and `text/event-stream`), no
    session (`Mcp-Session-Id` is neither given nor needed; `GET` and `DELETE /mcp` answer 405 with
    `Allow: POST`, as the transport prescribes for a stateless server). Protocol revision `2025-11-25`,
    older ones
    negotiated down. Tools: `list_tasks`, `get_task`, `create_task`, `update_task`, `delete_task`,
    `get_usage`, `list_connector_accounts`, `start_sync`, `get_sync_job`: each is the REST operation of
    the same name, its input schema made from this document's parameters and body schema, its result's
    `structuredContent` the REST response body (plus a one-line text), and it needs that operation's
    scope.

    Only access tokens issued for `{PUBLIC_URL}/mcp` (RFC 8707 `resource`) are accepted; the 401 points
    at
    `/.well-known/oauth-protected-resource/mcp`. Every POST spends the account budget and the OAuth
    client's own fence, like a REST call, and carries the rate-limit headers. A refused tool call (a
    spent
    budget, a missing scope, a cap, a bad argument) is still a 200: a tool result with `isError: true`
    and
    the common error body (`code`, and `retryAfterSeconds` and `window` for `RATE_LIMIT_EXCEEDED`) in
    `structuredContent`; a spent budget also sets `Retry-After`. Any other message over budget is a 429.

    DNS-rebinding protection: a `Host` other than `PUBLIC_URL`'s (loopback names when `PUBLIC_URL` is
    unset) is 403 `HOST_NOT_ALLOWED`, an `Origin` outside `CORS_ALLOWED_ORIGINS` 403
    `ORIGIN_NOT_ALLOWED`,
    before anything else (no budget spent).

    Args:
        body (JsonRpcMessage): A JSON-RPC 2.0 message of the Model Context Protocol (request,
            notification or response).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | JsonRpcMessage | PostMcpMessageResponse400 | PostMcpMessageResponse406 | PostMcpMessageResponse415]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: JsonRpcMessage,
) -> (
    Any
    | Error
    | JsonRpcMessage
    | PostMcpMessageResponse400
    | PostMcpMessageResponse406
    | PostMcpMessageResponse415
    | None
):
    """The MCP server (Streamable HTTP, stateless)

     A Model Context Protocol server on the official SDK: one JSON-RPC message per POST,
    answered with one JSON body (`Accept` must list `application/json` and `text/event-stream`), no
    session (`Mcp-Session-Id` is neither given nor needed; `GET` and `DELETE /mcp` answer 405 with
    `Allow: POST`, as the transport prescribes for a stateless server). Protocol revision `2025-11-25`,
    older ones
    negotiated down. Tools: `list_tasks`, `get_task`, `create_task`, `update_task`, `delete_task`,
    `get_usage`, `list_connector_accounts`, `start_sync`, `get_sync_job`: each is the REST operation of
    the same name, its input schema made from this document's parameters and body schema, its result's
    `structuredContent` the REST response body (plus a one-line text), and it needs that operation's
    scope.

    Only access tokens issued for `{PUBLIC_URL}/mcp` (RFC 8707 `resource`) are accepted; the 401 points
    at
    `/.well-known/oauth-protected-resource/mcp`. Every POST spends the account budget and the OAuth
    client's own fence, like a REST call, and carries the rate-limit headers. A refused tool call (a
    spent
    budget, a missing scope, a cap, a bad argument) is still a 200: a tool result with `isError: true`
    and
    the common error body (`code`, and `retryAfterSeconds` and `window` for `RATE_LIMIT_EXCEEDED`) in
    `structuredContent`; a spent budget also sets `Retry-After`. Any other message over budget is a 429.

    DNS-rebinding protection: a `Host` other than `PUBLIC_URL`'s (loopback names when `PUBLIC_URL` is
    unset) is 403 `HOST_NOT_ALLOWED`, an `Origin` outside `CORS_ALLOWED_ORIGINS` 403
    `ORIGIN_NOT_ALLOWED`,
    before anything else (no budget spent).

    Args:
        body (JsonRpcMessage): A JSON-RPC 2.0 message of the Model Context Protocol (request,
            notification or response).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | JsonRpcMessage | PostMcpMessageResponse400 | PostMcpMessageResponse406 | PostMcpMessageResponse415
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
