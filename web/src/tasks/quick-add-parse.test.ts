import { describe, expect, it } from 'vitest';
import { parseQuickAdd } from './quick-add-parse.js';

// A Wednesday, 10:00 in the machine's time zone: quick add reads dates in the browser's zone.
const NOW = new Date(2030, 0, 16, 10, 0, 0);
const local = (iso: string | undefined) => {
  const date = new Date(iso!);
  return [date.getFullYear(), date.getMonth() + 1, date.getDate(), date.getHours(), date.getMinutes()];
};

describe('quick add', () => {
  it('reads priority, a label and a date with a time out of the line; the rest is the title', () => {
    const read = parseQuickAdd('Pay rent p1 #home tomorrow 9am', NOW);
    expect(read).toMatchObject({ title: 'Pay rent', priority: 1, labels: ['home'], dueText: 'tomorrow 9am' });
    expect(local(read.dueAt)).toEqual([2030, 1, 17, 9, 0]);
  });

  it('a date without a time is due at the end of that day; weekdays look forward', () => {
    const read = parseQuickAdd('Call mum on friday', NOW);
    expect(read.title).toBe('Call mum');
    expect(local(read.dueAt)).toEqual([2030, 1, 18, 23, 59]);
  });

  it('takes several labels once each, in the order written, and keeps their case', () => {
    expect(parseQuickAdd('Plan trip #Travel #family #travel', NOW)).toEqual({ title: 'Plan trip', labels: ['Travel', 'family'] });
  });

  it('leaves alone what only looks like a priority or a label', () => {
    expect(parseQuickAdd('Fix p5 bug in issue#12 P2', NOW)).toEqual({ title: 'Fix p5 bug in issue#12', priority: 2, labels: [] });
    expect(parseQuickAdd('Replace the pump', NOW)).toEqual({ title: 'Replace the pump', labels: [] });
  });

  it('a line that is nothing but a label or a date stays a title', () => {
    expect(parseQuickAdd('#home', NOW)).toEqual({ title: '#home', labels: [] });
    expect(parseQuickAdd('tomorrow', NOW)).toEqual({ title: 'tomorrow', labels: [] });
  });
});
