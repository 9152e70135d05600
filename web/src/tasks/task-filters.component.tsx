import type { LabelList, TaskSort } from '@task-service/sdk';
import { useEffect, useState } from 'preact/hooks';
import { client } from '../api.js';
import type { StatusFilter } from './task-changes.js';
import type { DueView, View } from './view.js';

const SORTS: [TaskSort, string][] = [
  ['created', 'Oldest first'],
  ['-created', 'Newest first'],
  ['due', 'Due date'],
  ['priority', 'Priority'],
  ['-updated', 'Recently changed'],
  ['updated', 'Least recently changed'],
];
const DUES: [DueView, string][] = [
  ['', 'Any time'],
  ['overdue', 'Overdue'],
  ['today', 'Today'],
  ['week', 'Next 7 days'],
];
const SEARCH_DELAY_MS = 250;

type Label = LabelList['items'][number];

/**
 * Finding tasks (docs/finding-tasks.md): `Search`, status, the account's labels as chips (`Label`),
 * `Priority`, `Due` and `Sort`; every one is sent to the service, and the page keeps them in its address.
 */
export function TaskFilters({ view, onView, refreshLabels }: { view: View; onView: (view: View) => void; refreshLabels: number }) {
  const [typed, setTyped] = useState(view.q);
  const [labels, setLabels] = useState<Label[]>([]);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (typed === view.q) return;
    const timer = setTimeout(() => onView({ ...view, q: typed }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  // The chips follow the tasks: loaded at first, then again (at most every few seconds) after changes.
  useEffect(() => {
    const timer = setTimeout(
      () => void client.listLabels().then((listed) => listed.data && setLabels(listed.data.items), () => undefined),
      refreshLabels === 0 ? 0 : 2000,
    );
    return () => clearTimeout(timer);
  }, [refreshLabels]);

  const chosen = new Set(view.labels.map((label) => label.toLowerCase()));
  // A label in the address that no open task carries any more is still shown, so it can be cleared.
  const chips = [...labels.map((label) => ({ name: label.name, count: label.openTasks as number | undefined })), ...view.labels.filter((name) => !labels.some((label) => label.name.toLowerCase() === name.toLowerCase())).map((name) => ({ name, count: undefined }))];
  const active = (view.status !== 'open' ? 1 : 0) + (view.priority ? 1 : 0) + (view.due ? 1 : 0) + (view.sort !== 'created' ? 1 : 0) + view.labels.length;
  const toggleLabel = (name: string) =>
    onView({ ...view, labels: chosen.has(name.toLowerCase()) ? view.labels.filter((held) => held.toLowerCase() !== name.toLowerCase()) : [...view.labels, name] });

  return (
    <div class="finding">
      <div class="search-row">
        <div class="field search">
          <label for="search">Search</label>
          <input id="search" type="search" value={typed} maxLength={200} autoComplete="off" onInput={(event) => setTyped(event.currentTarget.value)} onKeyDown={(event) => event.key === 'Escape' && typed && (event.preventDefault(), setTyped(''))} />
        </div>
        {/* Below 600 px the other filters fold behind this button (styles.css), as the navigation does behind Menu. */}
        <button type="button" class="secondary filters-button" aria-expanded={open} aria-controls="filter-panel" onClick={() => setOpen(!open)}>
          Filters{active > 0 && ` (${active})`}
        </button>
      </div>
      <div id="filter-panel" class={open ? 'filter-panel open' : 'filter-panel'} onKeyDown={(event) => event.key === 'Escape' && open && (setOpen(false), document.querySelector<HTMLElement>('.filters-button')?.focus())}>
      <div class="filters">
        <div class="field">
          <label for="filter-status">Status</label>
          <select id="filter-status" value={view.status} onChange={(event) => onView({ ...view, status: event.currentTarget.value as StatusFilter })}>
            <option value="open">Open</option>
            <option value="completed">Completed</option>
            <option value="all">All</option>
          </select>
        </div>
        <div class="field">
          <label for="filter-priority">Priority</label>
          <select id="filter-priority" value={view.priority} onChange={(event) => onView({ ...view, priority: event.currentTarget.value })}>
            <option value="">Any</option>
            {[1, 2, 3, 4].map((level) => (
              <option key={level} value={String(level)}>
                P{level}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="filter-due">Due</label>
          <select id="filter-due" value={view.due} onChange={(event) => onView({ ...view, due: event.currentTarget.value as DueView })}>
            {DUES.map(([value, name]) => (
              <option key={value} value={value}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="filter-sort">Sort</label>
          <select id="filter-sort" value={view.sort} onChange={(event) => onView({ ...view, sort: event.currentTarget.value as TaskSort })}>
            {SORTS.map(([value, name]) => (
              <option key={value} value={value}>
                {name}
              </option>
            ))}
          </select>
        </div>
      </div>
      {chips.length > 0 && (
        <div role="group" aria-labelledby="label-chips-name" class="chips">
          <span id="label-chips-name" class="chips-name">
            Label
          </span>
          {chips.map((chip) => (
            <button
              key={chip.name}
              type="button"
              class="chip"
              aria-pressed={chosen.has(chip.name.toLowerCase())}
              aria-label={chip.count === undefined ? chip.name : `${chip.name}, ${chip.count} open`}
              onClick={() => toggleLabel(chip.name)}
            >
              #{chip.name}
              {chip.count !== undefined && <span aria-hidden="true"> {chip.count}</span>}
            </button>
          ))}
        </div>
      )}
      </div>
    </div>
  );
}
