/**
 * The AWS scale model's discrete-event clock, as docs/adr/0280-aws-scale-model.md describes it. The simulated code
 * must wait only through it: a real timer or real I/O would let `run()` see an empty queue while work is still
 * outstanding (the driver checks that every request finished and throws otherwise).
 */

interface Waiter {
  readonly at: number;
  /** Insertion order: waiters due at the same instant wake in the order they slept (deterministic). */
  readonly order: number;
  readonly wake: () => void;
}

/** A binary min-heap on (at, order). */
class WaiterHeap {
  private readonly items: Waiter[] = [];
  get size(): number {
    return this.items.length;
  }
  peek(): Waiter | undefined {
    return this.items[0];
  }
  push(w: Waiter): void {
    const a = this.items;
    a.push(w);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(a[i]!, a[p]!)) break;
      [a[i], a[p]] = [a[p]!, a[i]!];
      i = p;
    }
  }
  pop(): Waiter | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last !== undefined) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && before(a[l]!, a[m]!)) m = l;
        if (r < a.length && before(a[r]!, a[m]!)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top;
  }
}

const before = (x: Waiter, y: Waiter): boolean => x.at < y.at || (x.at === y.at && x.order < y.order);

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class VirtualClock {
  private current = 0;
  private order = 0;
  private readonly waiters = new WaiterHeap();

  /** Virtual milliseconds since the start of the run. */
  get now(): number {
    return this.current;
  }

  /** Resolves once the virtual clock has advanced by `ms` (≥ 0; 0 still yields to every waiter due now). */
  sleep(ms: number): Promise<void> {
    if (!(ms >= 0) || !Number.isFinite(ms)) throw new RangeError(`sleep needs a finite delay ≥ 0, got ${ms}`);
    return this.until(this.current + ms);
  }

  /** Resolves at virtual time `at` (or at once, on the next step, if that is already past). */
  until(at: number): Promise<void> {
    return new Promise((wake) => this.waiters.push({ at: Math.max(at, this.current), order: this.order++, wake }));
  }

  /** Advances through every pending wake-up until none is left; returns the virtual time reached. */
  async run(): Promise<number> {
    for (;;) {
      await turn();
      const first = this.waiters.peek();
      if (first === undefined) return this.current;
      this.current = first.at;
      while (this.waiters.peek()?.at === this.current) this.waiters.pop()!.wake();
    }
  }
}
