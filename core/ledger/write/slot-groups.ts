/**
 * Group commit of a log's slot writes (docs/adr/0350-group-commit-of-slot-writes.md): the members (appends) of one
 * log that reach the slot step while a commit of that log is in flight wait, and then go in the next commit together.
 * Commits of one log run strictly one at a time, in arrival order; logs commit concurrently.
 *
 * A writer may announce members before they arrive (`expect`): a group then leaves only when no announced member is
 * still on its way, so a batch's records go in one group (ADR 0350 measured it). An announced member that will never
 * arrive must be released, or its log waits for it.
 *
 * Pure: no clock, no I/O. `commit` answers one outcome per member of a group (at most `maxMembers`), in order, and may
 * hand back a tail it did not place (`deferred`), which goes first in the next group. A commit that throws fails
 * every member of its group.
 */

// A group is at most the store's all-or-nothing write limit.
import { MAX_GROUP_MEMBERS } from '../store/store.js';

export interface GroupAnswer<R> {
  /** One outcome per placed member, in the order they were given. */
  readonly outcomes: readonly R[];
  /** How many members, from the end of the group, were not placed and join the next group first (default 0). */
  readonly deferred?: number;
}

interface Waiting<M, R> {
  readonly member: M;
  readonly resolve: (r: R) => void;
  readonly reject: (e: unknown) => void;
}

export class SlotGroups<M, R> {
  private readonly queues = new Map<string, Waiting<M, R>[]>();
  private readonly flying = new Set<string>();
  /** Announced members per key that have neither joined nor been released. */
  private readonly arriving = new Map<string, number>();

  constructor(
    private readonly commit: (key: string, members: readonly M[]) => Promise<GroupAnswer<R>>,
    private readonly maxMembers = MAX_GROUP_MEMBERS,
  ) {
    if (!Number.isSafeInteger(maxMembers) || maxMembers < 1) throw new RangeError('maxMembers must be ≥ 1');
  }

  /**
   * Announces a member of `key` on its way: groups of `key` wait for it. Returns its arrival, to pass to `join`
   * (or to call when it will not join); calling it more than once counts once.
   */
  expect(key: string): () => void {
    this.arriving.set(key, (this.arriving.get(key) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const left = (this.arriving.get(key) ?? 1) - 1;
      if (left > 0) this.arriving.set(key, left);
      else this.arriving.delete(key);
      this.maybeFly(key);
    };
  }

  /** Joins the next commit of `key`; resolves with this member's outcome once its group has committed. */
  join(key: string, member: M, arrived?: () => void): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      let q = this.queues.get(key);
      if (q === undefined) this.queues.set(key, (q = []));
      q.push({ member, resolve, reject });
      arrived?.();
      this.maybeFly(key);
    });
  }

  private maybeFly(key: string): void {
    if (!this.flying.has(key) && (this.queues.get(key)?.length ?? 0) > 0 && !this.arriving.has(key)) void this.fly(key);
  }

  /** Commits the queue of `key` group after group until it is empty. Never rejects. */
  private async fly(key: string): Promise<void> {
    this.flying.add(key);
    try {
      for (;;) {
        const q = this.queues.get(key);
        if (q === undefined || q.length === 0) {
          this.queues.delete(key);
          return;
        }
        // Announced members still on their way: the last of them to arrive (or be released) starts the group.
        if (this.arriving.has(key)) return;
        const group = q.splice(0, this.maxMembers);
        await this.commitGroup(key, group, q);
      }
    } finally {
      this.flying.delete(key);
    }
  }

  private async commitGroup(key: string, group: Waiting<M, R>[], q: Waiting<M, R>[]): Promise<void> {
    let answer: GroupAnswer<R>;
    try {
      answer = await this.commit(
        key,
        group.map((w) => w.member),
      );
    } catch (e) {
      for (const w of group) w.reject(e);
      return;
    }
    const deferred = answer.deferred ?? 0;
    const placed = group.length - deferred;
    if (answer.outcomes.length !== placed || deferred < 0 || placed < (group.length > 0 ? 1 : 0)) {
      const e = new RangeError(`group commit answered ${answer.outcomes.length} outcomes for ${placed} members`);
      for (const w of group) w.reject(e);
      return;
    }
    q.unshift(...group.slice(placed));
    for (let i = 0; i < placed; i++) group[i]!.resolve(answer.outcomes[i]!);
  }
}
