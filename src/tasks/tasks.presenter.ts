import type { components } from '../../generated/api.js';
import { toIso, toIsoOrNull } from '../platform/time.js';
import type { TaskRow } from './tasks.repository.js';

type Task = components['schemas']['Task'];

/** A stored task as the API shows it. */
export function toTask(row: TaskRow): Task {
  return {
    id: row.id,
    title: row.title,
    notes: row.notes,
    status: row.status,
    // Written only through the validated edge (1..4); response validation checks it in tests.
    priority: Number(row.priority) as Task['priority'],
    dueAt: toIsoOrNull(row.due_at),
    labels: JSON.parse(row.labels) as string[],
    completedAt: toIsoOrNull(row.completed_at),
    createdAt: toIso(Number(row.created_at)),
    updatedAt: toIso(Number(row.updated_at)),
    source:
      row.connector_account_id !== null && row.connector_type !== null && row.external_id !== null
        ? { connectorAccountId: row.connector_account_id, connectorType: row.connector_type, externalId: row.external_id, url: row.external_url }
        : null,
    version: Number(row.version),
  };
}
