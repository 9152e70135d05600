from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.sync_job import SyncJob
from ...types import Response


def _get_kwargs(
    account_id: UUID,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/connector-accounts/{account_id}/sync".format(
            account_id=quote(str(account_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | SyncJob | None:
    if response.status_code == 202:
        response_202 = SyncJob.from_dict(response.json())

        return response_202

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | SyncJob]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    account_id: UUID,
    *,
    client: AuthenticatedClient,
) -> Response[Error | SyncJob]:
    """Start a sync job

     Queues a job that pulls the external account's items into tasks and answers at once. While a job
    is queued or running for this account, that job is returned instead of a new one. Poll
    `GET /sync-jobs/{jobId}`. Scope `connectors:write`.

    Items are upserted by (connected account, external id) in batches, and the job's counters grow as
    batches complete: known tasks are always updated, new ones are inserted while the task cap allows,
    the rest are counted in `droppedOverQuota` and the job still succeeds. A provider error fails the
    job with `error` saying why; a rate-limited provider is not asked again. A job interrupted by a
    server restart is resumed (its counters start over) or, after three interruptions, failed; it
    never stays `running`.

    Args:
        account_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SyncJob]
    """

    kwargs = _get_kwargs(
        account_id=account_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    account_id: UUID,
    *,
    client: AuthenticatedClient,
) -> Error | SyncJob | None:
    """Start a sync job

     Queues a job that pulls the external account's items into tasks and answers at once. While a job
    is queued or running for this account, that job is returned instead of a new one. Poll
    `GET /sync-jobs/{jobId}`. Scope `connectors:write`.

    Items are upserted by (connected account, external id) in batches, and the job's counters grow as
    batches complete: known tasks are always updated, new ones are inserted while the task cap allows,
    the rest are counted in `droppedOverQuota` and the job still succeeds. A provider error fails the
    job with `error` saying why; a rate-limited provider is not asked again. A job interrupted by a
    server restart is resumed (its counters start over) or, after three interruptions, failed; it
    never stays `running`.

    Args:
        account_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SyncJob
    """

    return sync_detailed(
        account_id=account_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    account_id: UUID,
    *,
    client: AuthenticatedClient,
) -> Response[Error | SyncJob]:
    """Start a sync job

     Queues a job that pulls the external account's items into tasks and answers at once. While a job
    is queued or running for this account, that job is returned instead of a new one. Poll
    `GET /sync-jobs/{jobId}`. Scope `connectors:write`.

    Items are upserted by (connected account, external id) in batches, and the job's counters grow as
    batches complete: known tasks are always updated, new ones are inserted while the task cap allows,
    the rest are counted in `droppedOverQuota` and the job still succeeds. A provider error fails the
    job with `error` saying why; a rate-limited provider is not asked again. A job interrupted by a
    server restart is resumed (its counters start over) or, after three interruptions, failed; it
    never stays `running`.

    Args:
        account_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SyncJob]
    """

    kwargs = _get_kwargs(
        account_id=account_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    account_id: UUID,
    *,
    client: AuthenticatedClient,
) -> Error | SyncJob | None:
    """Start a sync job

     Queues a job that pulls the external account's items into tasks and answers at once. While a job
    is queued or running for this account, that job is returned instead of a new one. Poll
    `GET /sync-jobs/{jobId}`. Scope `connectors:write`.

    Items are upserted by (connected account, external id) in batches, and the job's counters grow as
    batches complete: known tasks are always updated, new ones are inserted while the task cap allows,
    the rest are counted in `droppedOverQuota` and the job still succeeds. A provider error fails the
    job with `error` saying why; a rate-limited provider is not asked again. A job interrupted by a
    server restart is resumed (its counters start over) or, after three interruptions, failed; it
    never stays `running`.

    Args:
        account_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SyncJob
    """

    return (
        await asyncio_detailed(
            account_id=account_id,
            client=client,
        )
    ).parsed
