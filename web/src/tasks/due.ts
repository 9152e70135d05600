/** How a due date reads in the list, and whether it is overdue or today (the browser's time zone). */
export function dueState(dueAt: string | null, status: string, now = new Date()): { text: string; state: 'overdue' | 'today' | 'later' } | undefined {
  if (!dueAt) return undefined;
  const due = new Date(dueAt);
  const sameDay = due.toDateString() === now.toDateString();
  const endOfDay = due.getHours() === 23 && due.getMinutes() === 59;
  const time = due.toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' });
  const day = due.toLocaleDateString([], { weekday: 'short', day: 'numeric', month: 'short', ...(due.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }) });
  const when = sameDay ? (endOfDay ? 'today' : `today ${time}`) : endOfDay ? day : `${day} ${time}`;
  if (status !== 'completed' && due.getTime() < now.getTime()) return { text: `Overdue: ${when}`, state: 'overdue' };
  if (sameDay) return { text: `Due ${when}`, state: 'today' };
  return { text: `Due ${when}`, state: 'later' };
}

/** `<input type="datetime-local">`'s value for an instant, in the browser's time zone; '' for none. */
export function localInputValue(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The instant an `<input type="datetime-local">` names (read in the browser's time zone); null for empty. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
