import type { Task } from '@task-service/sdk';
import { useRef, useState } from 'preact/hooks';
import { useAction, useIdempotencyKey } from '../action.js';
import { client } from '../api.js';
import { announce } from '../live.js';
import { Problem } from '../ui.js';
import { fieldErrors } from '../words.js';
import { dueState } from './due.js';
import type { QuickAdd as Parsed, parseQuickAdd } from './quick-add-parse.js';

type Parser = typeof parseQuickAdd;
/** The date parser (chrono-node) loads on first use, so the first page load does not carry it. */
let parserLoad: Promise<Parser> | undefined;
const loadParser = () => (parserLoad ??= import('./quick-add-parse.js').then((module) => module.parseQuickAdd));

/**
 * The `New task` field: what it understood (priority `p1`, labels `#home`, a due date such as
 * `tomorrow 9am`) is shown under it before it is saved. A submit waits for its answer with the
 * button disabled, and the same line sent again (a second click, a retry after a lost answer)
 * carries the same Idempotency-Key, so it makes one task.
 */
export function QuickAdd({ onAdded }: { onAdded: (task: Task) => void }) {
  const [line, setLine] = useState('');
  const [parser, setParser] = useState<Parser>();
  const [empty, setEmpty] = useState(false);
  const action = useAction();
  const idempotency = useIdempotencyKey(line.trim());
  const input = useRef<HTMLInputElement>(null);
  const parsed = parser && line.trim() ? parser(line) : undefined;
  const load = () => void loadParser().then((loaded) => setParser(() => loaded));

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!line.trim()) return setEmpty(true);
    setEmpty(false);
    const read = (parser ?? (await loadParser()))(line);
    const key = idempotency.key;
    const made = await action.run(() => client.createTask(bodyOf(read), { idempotencyKey: key }));
    input.current?.focus();
    if (!made.ok) return;
    idempotency.spent();
    setLine('');
    announce(`Added “${made.data.title}”.`);
    onAdded(made.data);
  };

  const fieldError = empty ? 'Type the task first.' : fieldErrors(action.error).title;
  const preview = parsed && (parsed.priority || parsed.labels.length > 0 || parsed.dueAt) ? parsed : undefined;
  const described = [preview ? 'new-task-preview' : '', fieldError ? 'new-task-error' : '', 'new-task-hint'].filter(Boolean).join(' ');
  return (
    <form class="quick-add" onSubmit={(event) => void submit(event)} noValidate>
      <div class="inline-form">
        <div class="field">
          <label for="new-task">New task</label>
          <input
            ref={input}
            id="new-task"
            value={line}
            maxLength={500}
            autoComplete="off"
            onFocus={load}
            onInput={(event) => (setLine(event.currentTarget.value), setEmpty(false))}
            aria-invalid={fieldError ? 'true' : undefined}
            aria-describedby={described}
          />
        </div>
        <button type="submit" disabled={action.busy}>
          Add task
        </button>
      </div>
      <p class="muted hint" id="new-task-hint">
        Add p1–p4 for priority, #label, and a date like “tomorrow 9am”.
      </p>
      {preview && (
        <p class="preview" id="new-task-preview">
          Will add “{preview.title}”{preview.priority && `, priority P${preview.priority}`}
          {preview.labels.length > 0 && `, ${preview.labels.map((label) => `#${label}`).join(' ')}`}
          {preview.dueAt && `, ${dueState(preview.dueAt, 'open')!.text.replace(/^Due /, 'due ').replace(/^Overdue: /, 'due ')}`}.
        </p>
      )}
      {fieldError && (
        <p class="field-error" id="new-task-error">
          {fieldError}
        </p>
      )}
      {!fieldErrors(action.error).title && <Problem error={action.error} attempt={action.attempt} />}
    </form>
  );
}

function bodyOf(read: Parsed) {
  return { title: read.title, labels: read.labels, ...(read.priority ? { priority: read.priority } : {}), ...(read.dueAt ? { dueAt: read.dueAt } : {}) };
}
