import { parse } from 'chrono-node/en';

/** What quick add understood in a line such as `Pay rent p1 #home tomorrow 9am`. */
export interface QuickAdd {
  title: string;
  priority?: 1 | 2 | 3 | 4;
  labels: string[];
  /** ISO 8601 (UTC) of the due date and time, in the browser's time zone when written. */
  dueAt?: string;
  /** The words of the date as written, to show what was read. */
  dueText?: string;
}

const PRIORITY = /(^|\s)p([1-4])(?=\s|$)/i;
const LABEL = /(^|\s)#([\p{L}\p{N}_-]+)/gu;

/**
 * Reads priority (`p1`..`p4`), labels (`#word`) and a due date in English (chrono-node: `tomorrow
 * 9am`, `next friday`, `on 3 May at 17:30`) out of a task's line; what is left is the title. A date
 * with no time is due at the end of that day.
 */
export function parseQuickAdd(line: string, now = new Date()): QuickAdd {
  let rest = ` ${line} `;
  const result: QuickAdd = { title: '', labels: [] };
  const priority = PRIORITY.exec(rest);
  if (priority) {
    result.priority = Number(priority[2]) as QuickAdd['priority'] & number;
    rest = rest.replace(PRIORITY, ' ');
  }
  rest = rest.replace(LABEL, (_all, space: string, label: string) => {
    if (!result.labels.some((held) => held.toLowerCase() === label.toLowerCase())) result.labels.push(label);
    return space;
  });
  const [found] = parse(rest, now, { forwardDate: true });
  if (found) {
    const due = found.start.date();
    if (!found.start.isCertain('hour')) due.setHours(23, 59, 0, 0);
    result.dueAt = due.toISOString();
    result.dueText = found.text;
    rest = rest.slice(0, found.index) + ' ' + rest.slice(found.index + found.text.length);
  }
  result.title = rest.replace(/\s+/g, ' ').trim();
  // A line that is only a date or a label is a title, not an empty task.
  if (!result.title) return { title: line.trim(), labels: [] };
  return result;
}
