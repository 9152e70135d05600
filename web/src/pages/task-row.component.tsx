import type { Task, TaskApiError } from '@task-service/sdk';
import { useState } from 'preact/hooks';
import { client, errorText, fieldErrors } from '../api.js';
import { Field } from '../ui.js';

type Draft = { title: string; priority: string; labels: string; version: number };

/** One task: done checkbox, edit in place, delete; every change names the version it was made on (If-Match). */
export function TaskRow({ task, onChanged, onDeleted }: { task: Task; onChanged: (task: Task) => void; onDeleted: (taskId: string) => void }) {
  const [draft, setDraft] = useState<Draft>();
  const [error, setError] = useState<TaskApiError>();
  const [busy, setBusy] = useState(false);
  const conflict = error?.status === 412;

  const answered = (result: { data?: Task | undefined; error?: TaskApiError | undefined }) => {
    setBusy(false);
    setError(result.error);
    if (result.data) {
      onChanged(result.data);
      setDraft(undefined);
    }
  };
  const toggle = async () => {
    setBusy(true);
    answered(await client.updateTask(task.id, { status: task.status === 'completed' ? 'open' : 'completed' }, { ifMatch: task.version }));
  };
  const save = async (event: Event) => {
    event.preventDefault();
    if (!draft) return;
    setBusy(true);
    const labels = draft.labels.split(',').map((label) => label.trim()).filter(Boolean);
    answered(await client.updateTask(task.id, { title: draft.title, priority: Number(draft.priority) as Task['priority'], labels }, { ifMatch: draft.version }));
  };
  const remove = async () => {
    setBusy(true);
    const result = await client.deleteTask(task.id, { ifMatch: task.version });
    setBusy(false);
    if (result.error) return setError(result.error);
    onDeleted(task.id);
  };
  const reload = async () => {
    const fresh = await client.getTask(task.id);
    if (fresh.error) return setError(fresh.error);
    setError(undefined);
    // While editing, the form takes the fresh copy (the list follows through the change feed); a
    // parent update in the same batch could otherwise win over the form's own state.
    if (draft) setDraft(draftOf(fresh.data));
    else onChanged(fresh.data);
  };

  const fields = fieldErrors(error);
  return (
    <li class={task.status === 'completed' ? 'task done' : 'task'}>
      {draft ? (
        <form class="edit" onSubmit={(event) => void save(event)} noValidate>
          <Field id={`title-${task.id}`} label="Title" value={draft.title} onValue={(title) => setDraft({ ...draft, title })} error={fields.title} />
          <div class="field">
            <label for={`priority-${task.id}`}>Priority</label>
            <select id={`priority-${task.id}`} value={draft.priority} onChange={(event) => setDraft({ ...draft, priority: event.currentTarget.value })}>
              {[1, 2, 3, 4].map((level) => (
                <option key={level} value={String(level)}>
                  P{level}
                </option>
              ))}
            </select>
          </div>
          <Field
            id={`labels-${task.id}`}
            label="Labels (comma-separated)"
            value={draft.labels}
            onValue={(labels) => setDraft({ ...draft, labels })}
            error={fields.labels}
          />
          <div class="row">
            <button type="submit" disabled={busy}>
              Save
            </button>
            <button type="button" class="secondary" onClick={() => (setDraft(undefined), setError(undefined))}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div class="row">
          <input type="checkbox" id={`done-${task.id}`} checked={task.status === 'completed'} disabled={busy} onChange={() => void toggle()} aria-label={`Done: ${task.title}`} />
          <span class="title">{task.title}</span>
          <span class="badge">P{task.priority}</span>
          {task.labels.map((label) => (
            <span key={label} class="badge label">
              {label}
            </span>
          ))}
          <span class="actions">
            <button type="button" class="secondary" onClick={() => (setDraft(draftOf(task)), setError(undefined))} aria-label={`Edit: ${task.title}`}>
              Edit
            </button>
            <button type="button" class="danger" disabled={busy} onClick={() => void remove()} aria-label={`Delete: ${task.title}`}>
              Delete
            </button>
          </span>
        </div>
      )}
      {conflict && (
        <p class="problem" role="alert">
          This task changed elsewhere: reload to see it, then make your change again.{' '}
          <button type="button" onClick={() => void reload()}>
            Reload
          </button>
        </p>
      )}
      {error && !conflict && Object.keys(fields).length === 0 && (
        <p class="problem" role="alert">
          {errorText(error)}
        </p>
      )}
    </li>
  );
}

function draftOf(task: Task): Draft {
  return { title: task.title, priority: String(task.priority), labels: task.labels.join(', '), version: task.version };
}
