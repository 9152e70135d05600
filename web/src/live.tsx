import { useEffect, useState } from 'preact/hooks';

/** An outcome to tell: its words and, for a step that can be taken back, what `Undo` does. */
interface Notice {
  id: number;
  text: string;
  undo?: (() => void) | undefined;
  /** Runs when the notice goes without Undo (a delete waits for it before it is sent). */
  settle?: (() => void) | undefined;
}

const UNDO_MS = 6000;
const PLAIN_MS = 5000;
let current: Notice | undefined;
let counter = 0;
const listeners = new Set<(notice: Notice | undefined) => void>();

function show(next: Notice | undefined) {
  const previous = current;
  current = next;
  // A notice pushed aside by a newer one is settled at once: its step happens as it was told.
  if (previous && previous !== next) previous.settle?.();
  for (const listener of listeners) listener(next);
}

/**
 * Says an outcome through the app's one live region. With `undo`, the message carries an `Undo`
 * button for a few seconds; `settle` runs when that time passes (or another outcome replaces it).
 */
export function announce(text: string, options: { undo?: () => void; settle?: () => void } = {}): void {
  counter += 1;
  show({ id: counter, text, undo: options.undo, settle: options.settle });
}

/** Takes back the latest step while its `Undo` is still offered (the `u` key). */
export function undoLatest(): void {
  const notice = current;
  if (!notice?.undo) return;
  current = undefined;
  for (const listener of listeners) listener(undefined);
  notice.undo();
}

/** Settles what is waiting (the page is being left or hidden: a pending delete is sent now). */
export function settleNotices(): void {
  if (current?.settle) {
    const settle = current.settle;
    current = { ...current, undo: undefined, settle: undefined };
    settle();
    for (const listener of listeners) listener(current);
  }
}

/** The one live region (role status): outcomes, repeated ones announced again, and `Undo`. */
export function LiveRegion() {
  const [notice, setNotice] = useState<Notice | undefined>(current);
  useEffect(() => {
    listeners.add(setNotice);
    const leave = () => document.visibilityState === 'hidden' && settleNotices();
    addEventListener('pagehide', settleNotices);
    document.addEventListener('visibilitychange', leave);
    return () => {
      listeners.delete(setNotice);
      removeEventListener('pagehide', settleNotices);
      document.removeEventListener('visibilitychange', leave);
    };
  }, []);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => current === notice && show(undefined), notice.undo ? UNDO_MS : PLAIN_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  const undo = () => {
    // Focus was on Undo, which goes away: the undone row takes it (tasks.page.tsx), else the page's heading.
    document.getElementById('page-title')?.focus();
    undoLatest();
  };
  return (
    <div class={notice ? 'toast shown' : 'toast'} role="status" aria-live="polite">
      {/* A new node per notice, so the same words said twice are announced twice. */}
      {notice && (
        <p key={notice.id}>
          <span>{notice.text}</span>
          {notice.undo && (
            <button type="button" class="secondary" onClick={undo}>
              Undo
            </button>
          )}
        </p>
      )}
    </div>
  );
}
