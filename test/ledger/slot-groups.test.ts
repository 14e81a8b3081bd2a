import { describe, expect, it } from 'vitest';
import { SlotGroups } from '../../core/ledger/write/slot-groups.js';

/** A commit whose completion the test controls: each call is recorded and waits for `release()`. */
function controlled() {
  const calls: { key: string; members: readonly string[]; release: (deferred?: number) => void }[] = [];
  const groups = new SlotGroups<string, string>(
    (key, members) =>
      new Promise((resolve) => {
        calls.push({
          key,
          members,
          release: (deferred = 0) =>
            resolve({ outcomes: members.slice(0, members.length - deferred).map((m) => `${key}:${m}`), deferred }),
        });
      }),
    4,
  );
  return { groups, calls };
}

const settle = () => new Promise<void>((r) => setImmediate(r));

describe('group commit of a log’s slot writes (ADR 0350)', () => {
  it('sends the first member alone and every member that arrives while it flies together in the next group', async () => {
    const { groups, calls } = controlled();
    const first = groups.join('log-a', 'm1');
    const rest = ['m2', 'm3', 'm4'].map((m) => groups.join('log-a', m));
    await settle();
    expect(calls.map((c) => c.members)).toEqual([['m1']]);
    calls[0]!.release();
    expect(await first).toBe('log-a:m1');
    await settle();
    expect(calls.map((c) => c.members)).toEqual([['m1'], ['m2', 'm3', 'm4']]);
    calls[1]!.release();
    expect(await Promise.all(rest)).toEqual(['log-a:m2', 'log-a:m3', 'log-a:m4']);
  });

  it('commits different logs concurrently and never two groups of one log at once', async () => {
    const { groups, calls } = controlled();
    void groups.join('log-a', 'a1');
    void groups.join('log-b', 'b1');
    void groups.join('log-a', 'a2');
    await settle();
    expect(calls.map((c) => [c.key, ...c.members])).toEqual([
      ['log-a', 'a1'],
      ['log-b', 'b1'],
    ]);
  });

  it('caps a group at its member limit and puts deferred members first in the next group, in order', async () => {
    const { groups, calls } = controlled();
    void groups.join('log-a', 'x');
    const later = ['1', '2', '3', '4', '5', '6'].map((m) => groups.join('log-a', m));
    await settle();
    calls[0]!.release();
    await settle();
    expect(calls[1]!.members).toEqual(['1', '2', '3', '4']);
    calls[1]!.release(2);
    await settle();
    expect(calls[2]!.members).toEqual(['3', '4', '5', '6']);
    calls[2]!.release();
    expect(await Promise.all(later)).toEqual(['1', '2', '3', '4', '5', '6'].map((m) => `log-a:${m}`));
  });

  it('fails every member of a group whose commit throws, and still commits the next group', async () => {
    let n = 0;
    const groups = new SlotGroups<string, string>(async (_key, members) => {
      if (n++ === 0) throw new Error('store down');
      return { outcomes: members.map((m) => `ok ${m}`) };
    });
    const a = groups.join('log-a', 'a');
    const b = groups.join('log-a', 'b');
    await expect(a).rejects.toThrow('store down');
    expect(await b).toBe('ok b');
  });

  it('refuses an answer that does not give one outcome per placed member', async () => {
    const groups = new SlotGroups<string, string>(async () => ({ outcomes: [] }));
    await expect(groups.join('log-a', 'a')).rejects.toThrow(RangeError);
  });
});

describe('group commit with announced members (ADR 0350)', () => {
  it('holds a group until every announced member has joined, then sends them all together', async () => {
    const { groups, calls } = controlled();
    const arrivals = ['m1', 'm2', 'm3'].map(() => groups.expect('log-a'));
    const first = groups.join('log-a', 'm1', arrivals[0]);
    await settle();
    expect(calls).toEqual([]);
    const rest = [groups.join('log-a', 'm2', arrivals[1]), groups.join('log-a', 'm3', arrivals[2])];
    await settle();
    expect(calls.map((c) => c.members)).toEqual([['m1', 'm2', 'm3']]);
    calls[0]!.release();
    expect(await Promise.all([first, ...rest])).toEqual(['log-a:m1', 'log-a:m2', 'log-a:m3']);
  });

  it('lets the group go when an announced member is released without joining', async () => {
    const { groups, calls } = controlled();
    const a = groups.expect('log-a');
    const b = groups.expect('log-a');
    void groups.join('log-a', 'm1', a);
    await settle();
    expect(calls).toEqual([]);
    b();
    b(); // released twice: counted once
    await settle();
    expect(calls.map((c) => c.members)).toEqual([['m1']]);
  });

  it('starts a member that joins again after its arrival was counted (a retry after a lost group)', async () => {
    const { groups, calls } = controlled();
    const a = groups.expect('log-a');
    void groups.join('log-a', 'first try', a);
    await settle();
    calls[0]!.release();
    await settle();
    void groups.join('log-a', 'retry', a);
    await settle();
    expect(calls.map((c) => c.members)).toEqual([['first try'], ['retry']]);
  });

  it('never holds one log for a member announced on another', async () => {
    const { groups, calls } = controlled();
    groups.expect('log-b');
    void groups.join('log-a', 'a1', groups.expect('log-a'));
    await settle();
    expect(calls.map((c) => c.key)).toEqual(['log-a']);
  });
});
