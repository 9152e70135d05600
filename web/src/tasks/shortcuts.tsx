import type { Task } from '@task-service/sdk';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import { undoLatest } from '../live.js';

export const SHORTCUTS: [keys: string, what: string][] = [
  ['q or n', 'Add a task (goes to New task)'],
  ['/', 'Find: goes to the search field'],
  ['j / k', 'Next / previous task'],
  ['x', 'Complete the task in focus (or open it again)'],
  ['e', 'Edit the task in focus'],
  ['u', 'Undo the last complete or delete'],
  ['Escape', 'Close what is open'],
  ['?', 'This list'],
];

interface Handlers {
  focused: () => Task | undefined;
  rows: () => HTMLElement[];
  toggle: (task: Task) => void;
  edit: (task: Task) => void;
  help: () => void;
  enabled: boolean;
}

/** The Tasks page's keys; never while typing in a field or with a modifier held (those are the browser's). */
export function useShortcuts(handlers: Handlers): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    const press = (event: KeyboardEvent) => {
      const { focused, rows, toggle, edit, help, enabled } = latest.current;
      const target = event.target as HTMLElement | null;
      if (!enabled || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
      if (target?.closest('input:not([type=checkbox]), textarea, select, [contenteditable], dialog[open]')) return;
      const move = (step: number) => {
        const all = rows();
        const at = all.findIndex((row) => row.contains(document.activeElement));
        const next = all[at < 0 ? (step > 0 ? 0 : all.length - 1) : Math.min(all.length - 1, Math.max(0, at + step))];
        next?.querySelector<HTMLElement>('input[type=checkbox]')?.focus();
      };
      const act: Record<string, () => void> = {
        q: () => document.getElementById('new-task')?.focus(),
        n: () => document.getElementById('new-task')?.focus(),
        '/': () => (document.getElementById('search') ?? document.getElementById('filter-label'))?.focus(),
        j: () => move(1),
        k: () => move(-1),
        x: () => {
          const task = focused();
          if (task) toggle(task);
        },
        e: () => {
          const task = focused();
          if (task) edit(task);
        },
        u: undoLatest,
        '?': help,
      };
      const run = act[event.key];
      if (!run) return;
      event.preventDefault();
      run();
    };
    addEventListener('keydown', press);
    return () => removeEventListener('keydown', press);
  }, []);
}

/** `?`: the shortcuts, in a modal dialog named `Keyboard shortcuts` (Escape or Close closes it). */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  // Closing a modal dialog gives focus back to where it was (the browser does it, also on Escape).
  useLayoutEffect(() => dialog.current?.showModal(), []);
  return (
    <dialog ref={dialog} aria-labelledby="shortcuts-title" onClose={onClose}>
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <dl class="shortcuts">
        {SHORTCUTS.map(([keys, what]) => (
          <div key={keys}>
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <button type="button" onClick={() => dialog.current?.close()}>
        Close
      </button>
    </dialog>
  );
}
