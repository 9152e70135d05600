import type { Task } from '@task-service/sdk';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { useAction } from '../action.js';
import { client } from '../api.js';
import { announce } from '../live.js';
import { Field, Problem } from '../ui.js';
import { fieldErrors, isApiError } from '../words.js';
import { fromLocalInput, localInputValue } from './due.js';

type Draft = { title: string; notes: string; priority: string; labels: string; due: string; version: number };

/**
 * A task opened to read and edit all of it. The edit names the version it started from (If-Match);
 * a change from elsewhere meanwhile (seen in the change feed, or as a 412) keeps the form as typed
 * and offers to load the other version.
 */
export function TaskForm({ task, gone, onSaved, onClose }: { task: Task; gone: boolean; onSaved: (task: Task) => void; onClose: (saved: boolean) => void }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(task));
  const [localError, setLocalError] = useState<Record<string, string>>({});
  const action = useAction();
  const form = useRef<HTMLFormElement>(null);
  const focusFirst = () => (form.current?.querySelector('input') as HTMLInputElement | null)?.focus();
  useLayoutEffect(focusFirst, []);

  const conflict = isApiError(action.error) && action.error.status === 412;
  const changedElsewhere = !gone && (task.version > draft.version || conflict);
  const fields = { ...fieldErrors(action.error), ...localError };
  const id = task.id;

  const save = async (event: Event) => {
    event.preventDefault();
    if (!draft.title.trim()) return setLocalError({ title: 'The title cannot be empty.' });
    setLocalError({});
    const labels = [...new Set(draft.labels.split(',').map((label) => label.trim()).filter(Boolean))];
    const change = { title: draft.title.trim(), notes: draft.notes.trim() ? draft.notes : null, priority: Number(draft.priority) as Task['priority'], labels, dueAt: fromLocalInput(draft.due) };
    const saved = await action.run(() => client.updateTask(id, change, { ifMatch: draft.version }));
    // The button was disabled while waiting, which takes focus away: it goes back to the form.
    if (!saved.ok) return focusFirst();
    onSaved(saved.data);
    announce(`Saved “${saved.data.title}”.`);
    onClose(true);
  };
  const reload = async () => {
    const fresh = await action.run(() => client.getTask(id));
    if (!fresh.ok) return;
    setDraft(draftOf(fresh.data));
    onSaved(fresh.data);
    announce('Loaded the latest version of the task.');
  };
  const set = (part: Partial<Draft>) => setDraft({ ...draft, ...part });

  return (
    <form
      ref={form}
      class="edit"
      aria-label={`Edit task: ${task.title}`}
      onSubmit={(event) => void save(event)}
      onKeyDown={(event) => event.key === 'Escape' && (event.preventDefault(), onClose(false))}
      noValidate
    >
      {gone && (
        <p class="problem" role="alert">
          This task was deleted on another device. What you typed is still here to copy; saving is no longer possible.
        </p>
      )}
      {changedElsewhere && (
        <div class="problem" role="alert">
          <p>This task changed on another device. Your edit is kept; load the new version to see it (your edit will be replaced).</p>
          <button type="button" class="secondary" onClick={() => void reload()}>
            Reload
          </button>
        </div>
      )}
      {!conflict && <Problem error={action.error} attempt={action.attempt} />}
      <Field id={`title-${id}`} label="Title" value={draft.title} onValue={(value) => set({ title: value })} maxLength={500} error={fields.title} />
      <div class="field">
        <label for={`notes-${id}`}>Notes</label>
        <textarea id={`notes-${id}`} rows={3} value={draft.notes} onInput={(event) => set({ notes: event.currentTarget.value })} />
      </div>
      <div class="form-grid">
        <div class="field">
          <label for={`priority-${id}`}>Priority</label>
          <select id={`priority-${id}`} value={draft.priority} onChange={(event) => set({ priority: event.currentTarget.value })}>
            {[1, 2, 3, 4].map((level) => (
              <option key={level} value={String(level)}>
                P{level}
                {level === 1 ? ' (highest)' : level === 4 ? ' (lowest)' : ''}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for={`due-${id}`}>Due</label>
          <input id={`due-${id}`} type="datetime-local" value={draft.due} onInput={(event) => set({ due: event.currentTarget.value })} aria-invalid={fields.dueAt ? 'true' : undefined} />
          {fields.dueAt && <p class="field-error">{fields.dueAt}</p>}
        </div>
      </div>
      <div class="field">
        <label for={`labels-${id}`}>Labels</label>
        <input id={`labels-${id}`} value={draft.labels} onInput={(event) => set({ labels: event.currentTarget.value })} aria-describedby={`labels-${id}-hint`} />
        <p class="muted hint" id={`labels-${id}-hint`}>
          Separate labels with commas.
        </p>
        {fields.labels && <p class="field-error">{fields.labels}</p>}
      </div>
      <div class="row">
        <button type="submit" disabled={action.busy || gone}>
          Save
        </button>
        <button type="button" class="secondary" onClick={() => onClose(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function draftOf(task: Task): Draft {
  return { title: task.title, notes: task.notes ?? '', priority: String(task.priority), labels: task.labels.join(', '), due: localInputValue(task.dueAt), version: task.version };
}
