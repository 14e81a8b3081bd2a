/**
 * Fast paths for dynalite's per-call work, installed on its thread before `dynalite()` runs (ADR 0256). dynalite's
 * modules are plain CommonJS objects that look their functions up at call time, so wrapping a few of them changes
 * what a call costs and nothing it answers: no file under node_modules is patched.
 *
 * - `store.getTable(name, cb)` — the data-plane form (PutItem, GetItem, Query, …) — is served from memory for an
 *   ACTIVE table instead of a LevelDB read and JSON decode per call. Every `tableDb.put`/`del` (create, update,
 *   delete, the lifecycle timers) empties the memory and keeps it empty until the write has settled; a read that
 *   started before a write is never remembered. The control-plane form `getTable(name, false, cb)` always reads
 *   fresh: its callers mutate the description they get. The data-plane callers only read it (checked in
 *   actions/*.js and db/index.js of dynalite 4.0.0).
 * - `conditionParser.parse` (ConditionExpression, FilterExpression) remembers a successful parse of an expression
 *   that uses no ExpressionAttributeValues (its tree then holds no request data), keyed by the expression and the
 *   ExpressionAttributeNames, and replays its one side effect: the names it used leave `context.unusedAttrNames`.
 *   Key conditions are never remembered: validations/query.js rewrites their tree in place.
 *
 * The function is serialized into the worker's source (launcher.ts), so it must stay self-contained: it reaches
 * modules only through `load`, a require rooted at dynalite's own directory (the very module instances dynalite's
 * index.js uses).
 */
/** How often the fast paths answered from memory (the worker reports them on request: tests and benchmarks). */
export interface FastPathStats {
  tableHits: number;
  parseHits: number;
}

export function installDynaliteFastPaths(load: (id: string) => unknown): FastPathStats {
  const stats: FastPathStats = { tableHits: 0, parseHits: 0 };
  type Callback = (err: unknown, value?: unknown) => void;
  interface TableDb {
    put(key: string, value: unknown, cb?: Callback): unknown;
    del(key: string, cb?: Callback): unknown;
  }
  interface Store {
    tableDb: TableDb;
    getTable(name: string, checkStatus: unknown, cb?: Callback): void;
    lifecycleManager?: { getState(): string };
  }
  interface ParseContext {
    attrNames?: Record<string, string> | null;
    attrVals?: unknown;
    unusedAttrNames?: Record<string, boolean>;
    isKeyCondition?: boolean;
  }
  type Parse = (input: string, options?: { context?: ParseContext }) => unknown;

  const MAX_PARSES = 1000;
  const db = load('./db') as { create(options: unknown): Store };
  const conditionParser = load('./db/conditionParser') as { parse: Parse };

  const create = db.create;
  db.create = function createWithTableMemo(options: unknown): Store {
    const store = create(options);
    const { tableDb } = store;
    const getTable = store.getTable;
    const tables = new Map<string, unknown>();
    let generation = 0;
    let writesInFlight = 0;
    let untracked = false;
    const writing = <A extends unknown[]>(write: (...args: A) => unknown) =>
      function (this: unknown, ...args: A): unknown {
        tables.clear();
        generation++;
        const cb = args[args.length - 1];
        if (typeof cb !== 'function') {
          // No way to see this write settle (dynalite always passes a callback): stop remembering for good.
          untracked = true;
          return write.apply(this, args);
        }
        writesInFlight++;
        const settle = (): void => {
          tables.clear();
          generation++;
          writesInFlight--;
        };
        args[args.length - 1] = function (this: unknown, ...results: unknown[]): unknown {
          settle();
          return (cb as (...r: unknown[]) => unknown).apply(this, results);
        };
        return write.apply(this, args);
      };
    tableDb.put = writing(tableDb.put.bind(tableDb) as (...args: unknown[]) => unknown);
    tableDb.del = writing(tableDb.del.bind(tableDb) as (...args: unknown[]) => unknown);
    store.getTable = function getTableMemo(name: string, checkStatus: unknown, cb?: Callback): void {
      // Only the data-plane form (name, cb), while the database is open; anything else is dynalite's own path.
      if (typeof checkStatus !== 'function' || cb !== undefined || store.lifecycleManager?.getState() === 'closed') {
        return getTable(name, checkStatus, cb);
      }
      const done = checkStatus as Callback;
      const known = tables.get(name);
      if (known !== undefined) {
        stats.tableHits++;
        return void setImmediate(done, null, known);
      }
      const started = generation;
      getTable(name, (err: unknown, table?: unknown) => {
        if (
          !err &&
          writesInFlight === 0 &&
          !untracked &&
          generation === started &&
          (table as { TableStatus?: unknown }).TableStatus === 'ACTIVE'
        ) {
          tables.set(name, table);
        }
        done(err, table);
      });
    };
    return store;
  };

  const parse = conditionParser.parse;
  const parses = new Map<string, { result: unknown; usedNames: readonly string[] }>();
  conditionParser.parse = function parseMemo(input: string, options?: { context?: ParseContext }): unknown {
    const context = options?.context;
    if (!context || context.attrVals != null || context.isKeyCondition || !context.unusedAttrNames) {
      return parse(input, options);
    }
    const names = context.attrNames ?? null;
    const key = `${input}\u0000${JSON.stringify(names)}`;
    let known = parses.get(key);
    if (known !== undefined) stats.parseHits++;
    else {
      // Parsed against a fresh list of unused names, so the names this expression uses are all seen, whatever an
      // earlier expression of the same request already used. The parser only deletes from that list.
      const unused = Object.create(null) as Record<string, boolean>;
      for (const name of Object.keys(names ?? {})) unused[name] = true;
      const result = parse(input, { ...options, context: { ...context, unusedAttrNames: unused } });
      const usedNames = Object.keys(names ?? {}).filter((name) => !(name in unused));
      known = { result, usedNames };
      // A string is an error message, kept out of memory (as is a thrown SyntaxError).
      if (typeof result === 'object' && result !== null) {
        if (parses.size >= MAX_PARSES) parses.clear();
        parses.set(key, known);
      }
    }
    for (const name of known.usedNames) delete context.unusedAttrNames[name];
    return known.result;
  };

  return stats;
}
