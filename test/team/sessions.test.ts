/**
 * Budget sessions in the team database (team/sessions.ts), as two servers
 * see them: two PostgresSessions on one database stand for two processes.
 */
import { expect, it } from 'vitest';
import { inSession } from '../../src/budget/index.js';
import { teamSessions } from '../../src/team/index.js';
import { usePostgres } from '../helpers/use-postgres.js';

const db = usePostgres();

it('refusal counts and receipts written by one server are read by another; another repository sees neither', async () => {
  const a = teamSessions(db.url, 'repo-1');
  const b = teamSessions(db.url, 'repo-1');
  await inSession(a, 's', async () => {
    expect(a.refusals('s')).toBe(0);
    expect([a.refuse('s', 3), a.refuse('s', 3)]).toEqual([1, 2]);
    a.record('s', ['r1', 'r2']);
    expect(a.holds('s', 'r1')).toBe(true);
  });
  await inSession(b, 's', async () => {
    expect(b.refusals('s')).toBe(2);
    expect(b.holds('s', 'r2')).toBe(true);
    expect(b.holds('s', 'r3')).toBe(false);
    b.record('s', ['r3']);
  });
  await inSession(a, 's', async () => expect(a.holds('s', 'r3')).toBe(true));

  const other = teamSessions(db.url, 'repo-2');
  await inSession(other, 's', async () => {
    expect(other.refusals('s')).toBe(0);
    expect(other.holds('s', 'r1')).toBe(false);
  });
});

it('calls of one session in flight together share what was loaded, and what each recorded is written', async () => {
  const a = teamSessions(db.url, 'repo-3');
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const first = inSession(a, 'shared', async () => {
    a.record('shared', ['x']);
    await held;
  });
  await inSession(a, 'shared', async () => {
    expect(a.holds('shared', 'x')).toBe(true);
    a.record('shared', ['y']);
  });
  release();
  await first;
  const b = teamSessions(db.url, 'repo-3');
  await inSession(b, 'shared', async () => expect(['x', 'y'].map((r) => b.holds('shared', r))).toEqual([true, true]));
});

it('a session used before it was opened is a named internal error, not a silent empty session', () => {
  const a = teamSessions(db.url, 'repo-4');
  expect(() => a.holds('never-opened', 'r')).toThrow(/budget session never-opened was used before it was opened/);
});

it('an ended session is gone for every server: its refusal count and receipts are dropped, another session kept', async () => {
  const a = teamSessions(db.url, 'repo-5');
  const b = teamSessions(db.url, 'repo-5');
  for (const id of ['closing', 'staying']) {
    await inSession(a, id, async () => {
      a.refuse(id, 3);
      a.record(id, ['r']);
    });
  }
  await a.end('closing');
  await inSession(b, 'closing', async () => {
    expect(b.refusals('closing')).toBe(0);
    expect(b.holds('closing', 'r')).toBe(false);
  });
  await inSession(b, 'staying', async () => expect(b.holds('staying', 'r')).toBe(true));
});
