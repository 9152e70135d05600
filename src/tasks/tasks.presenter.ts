import type { components } from '../../generated/api.js';
import { toIso, toIsoOrNull } from '../platform/time.js';
import type { TaskRow } from './tasks.repository.js';

type Task = components['schemas']['Task'];

/** A stored task as the API shows it (its change number is the feed's, not the task's). */
export function toTask(row: Omit<TaskRow, 'change_seq'>): Task {
  return {
    id: row.id,
    title: row.title,
    notes: row.notes,
    status: row.status,
    // Written only through the validated edge (1..4); response validation checks it in tests.
    priority: Number(row.priority) as Task['priority'],
    dueAt: toIsoOrNull(row.due_at),
    labels: labelsOf(row.labels),
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

/**
 * Parsing the stored labels was a tenth of a page's cost, and most tasks of an account carry one of a
 * few label sets: each text is parsed once and its list copied (a response may be changed by whoever builds it).
 */
const parsedLabels = new Map<string, readonly string[]>();
const LABEL_SETS_KEPT = 1000;

function labelsOf(stored: string): string[] {
  if (stored === '[]') return [];
  let labels = parsedLabels.get(stored);
  if (!labels) {
    labels = JSON.parse(stored) as string[];
    if (parsedLabels.size >= LABEL_SETS_KEPT) parsedLabels.clear();
    parsedLabels.set(stored, labels);
  }
  return labels.slice();
}
