/**
 * TransactWriteItems for dynalite, which has none (docs/adr/0351-emulator-transact-write-items.md): the subset the
 * ledger's group commit sends (core/ledger/write/append.ts, ADR 0350) — conditional Puts, all or nothing — answered as
 * DynamoDB answers it, so the real SDK's own parsing runs against the local stack. Always on: it is a missing
 * operation, not a shortcut (unlike dynalite-fast-paths.ts, ADR 0286).
 *
 * What it does, per the DynamoDB API reference for TransactWriteItems:
 *   - validates the request: 1..100 TransactItems, each with exactly one action; a ClientRequestToken of 1..36
 *     characters; no two actions on one item; the items' total size ≤ 4 MB; every item valid for its table
 *     (dynalite's own `validateItem`: key types, 400 KB). An action or parameter it does not implement (Update,
 *     Delete, ConditionCheck, a condition other than `attribute_not_exists(name)`, ExpressionAttributeValues) is
 *     refused with a ValidationException naming it — never silently ignored;
 *   - takes dynalite's own per-item locks on every key (its `lock` package locks a list of keys at once), reads each
 *     current item, and either writes every item in one LevelDB batch (readers see all or none) or writes nothing
 *     and answers `TransactionCanceledException` with one `CancellationReasons` entry per action, in order
 *     (`ConditionalCheckFailed` or `None`), in the JSON shape the SDK parses;
 *   - remembers a successful request's ClientRequestToken for 10 minutes: the same token with the same body is
 *     answered success again without writing (the SDK's retry of a transaction that did land), with another body
 *     `IdempotentParameterMismatchException`.
 *
 * Serialized into dynalite's worker source (launcher.ts) like the fast paths: self-contained, modules only through
 * `load` (rooted at dynalite's directory, so it gets the very `db` module instance dynalite uses).
 */

/** The request handler the worker puts in front of dynalite's: true when it took the request. */
export type TransactionRoute = (req: unknown, res: unknown) => boolean;

export function installDynaliteTransactions(load: (id: string) => unknown): TransactionRoute {
  type Callback = (err: unknown, value?: unknown) => void;
  type Item = Record<string, unknown>;
  interface Table {
    KeySchema: unknown;
  }
  interface ItemDb {
    lock(keys: string[], exec: (release: (cb: Callback) => Callback) => void): void;
    get(key: string, cb: Callback): void;
    batch(ops: { type: 'put'; key: string; value: Item }[], cb: Callback): void;
  }
  interface Store {
    getTable(name: string, cb: Callback): void;
    getItemDb(name: string): ItemDb;
  }
  interface Db {
    create(options: unknown): Store;
    /** null when valid, else dynalite's own error (an Error carrying statusCode and body). */
    validateItem(item: Item, table: Table): Error | null | undefined;
    createKey(item: Item, table: Table): string;
    itemSize(item: Item): number;
    updateIndexes(store: Store, table: Table, existing: Item | undefined, item: Item, cb: Callback): void;
  }
  interface Req {
    headers: Record<string, string | undefined>;
    method?: string;
    on(event: string, listener: (chunk?: Buffer) => void): void;
  }
  interface Res {
    statusCode: number;
    setHeader(name: string, value: string | number): void;
    end(body: string): void;
  }

  const TARGET = 'DynamoDB_20120810.TransactWriteItems';
  const MAX_ACTIONS = 100;
  const MAX_BYTES = 4 * 1024 * 1024;
  const TOKEN_MS = 10 * 60 * 1000;
  const MAX_BODY = 16 * 1024 * 1024;
  const CONDITION = /^\s*attribute_not_exists\s*\(\s*(#?[A-Za-z0-9_]+)\s*\)\s*$/;

  const db = load('./db') as Db;
  const crc32 = load('buffer-crc32') as { unsigned(s: string): number };
  const crypto = load('node:crypto') as { createHash(a: string): { update(s: string): { digest(e: string): string } } };
  let store: Store | undefined;
  const create = db.create;
  db.create = function createAndKeep(options: unknown): Store {
    store = create(options);
    return store;
  };
  const tokens = new Map<string, { digest: string; at: number }>();

  class Refusal extends Error {
    constructor(
      readonly type: string,
      message: string,
      readonly extra: Item = {},
    ) {
      super(message);
    }
  }
  const invalid = (message: string): Refusal => new Refusal('com.amazon.coral.validate#ValidationException', message);

  const send = (res: Res, status: number, data: unknown): void => {
    const body = JSON.stringify(data);
    res.statusCode = status;
    res.setHeader('x-amz-crc32', crc32.unsigned(body));
    res.setHeader('Content-Type', 'application/x-amz-json-1.0');
    res.setHeader('Content-Length', Buffer.byteLength(body, 'utf8'));
    res.end(body);
  };
  const refuse = (res: Res, e: unknown): void => {
    if (e instanceof Refusal) return send(res, 400, { __type: e.type, message: e.message, ...e.extra });
    const d = e as { statusCode?: number; body?: unknown };
    if (d && typeof d.statusCode === 'number' && d.body !== undefined) return send(res, d.statusCode, d.body);
    send(res, 500, { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: String(e) });
  };

  interface Put {
    readonly tableName: string;
    readonly item: Item;
    /** The attribute that must be absent from the current item, when the Put is conditional. */
    readonly absent: string | undefined;
  }

  const isObject = (v: unknown): v is Item => typeof v === 'object' && v !== null && !Array.isArray(v);

  function readPut(action: unknown, i: number): Put {
    if (!isObject(action)) throw invalid(`TransactItems[${i}] must be an object`);
    const kinds = Object.keys(action).filter((k) => action[k] !== undefined && action[k] !== null);
    if (kinds.length !== 1)
      throw invalid(`TransactItems[${i}] must hold exactly one of Put, Update, Delete, ConditionCheck`);
    if (kinds[0] !== 'Put')
      throw invalid(`TransactItems[${i}]: ${kinds[0]} is not implemented by Docket's emulator (only Put)`);
    const put = action.Put;
    if (!isObject(put)) throw invalid(`TransactItems[${i}].Put must be an object`);
    for (const k of Object.keys(put))
      if (
        ![
          'TableName',
          'Item',
          'ConditionExpression',
          'ExpressionAttributeNames',
          'ReturnValuesOnConditionCheckFailure',
        ].includes(k)
      )
        throw invalid(`TransactItems[${i}].Put.${k} is not implemented by Docket's emulator`);
    if (typeof put.TableName !== 'string' || put.TableName.length < 3)
      throw invalid(`TransactItems[${i}].Put.TableName must be a table name`);
    if (!isObject(put.Item)) throw invalid(`TransactItems[${i}].Put.Item must be a map`);
    const rv = put.ReturnValuesOnConditionCheckFailure;
    if (rv !== undefined && rv !== 'NONE')
      throw invalid(`TransactItems[${i}].Put.ReturnValuesOnConditionCheckFailure ${String(rv)} is not implemented`);
    const names = put.ExpressionAttributeNames;
    if (names !== undefined && !isObject(names))
      throw invalid(`TransactItems[${i}].ExpressionAttributeNames must be a map`);
    let absent: string | undefined;
    if (put.ConditionExpression !== undefined) {
      const m = typeof put.ConditionExpression === 'string' ? CONDITION.exec(put.ConditionExpression) : null;
      if (m === null)
        throw invalid(`TransactItems[${i}]: only ConditionExpression attribute_not_exists(name) is implemented`);
      const name = m[1]!;
      if (name.startsWith('#')) {
        const real = names?.[name];
        if (typeof real !== 'string')
          throw invalid(`Value provided in ExpressionAttributeNames unused or undefined: ${name}`);
        absent = real;
      } else absent = name;
      const unused = Object.keys(names ?? {}).filter((n) => n !== name);
      if (unused.length > 0)
        throw invalid(`Value provided in ExpressionAttributeNames unused in expressions: keys: {${unused.join(', ')}}`);
    } else if (names !== undefined)
      throw invalid('ExpressionAttributeNames can only be specified when using expressions');
    return { tableName: put.TableName, item: put.Item, absent };
  }

  function readRequest(data: unknown): { puts: Put[]; token: string | undefined } {
    if (!isObject(data)) throw invalid('The request must be a JSON object');
    for (const k of Object.keys(data))
      if (!['TransactItems', 'ClientRequestToken', 'ReturnConsumedCapacity', 'ReturnItemCollectionMetrics'].includes(k))
        throw invalid(`${k} is not a TransactWriteItems parameter Docket's emulator implements`);
    const items = data.TransactItems;
    if (!Array.isArray(items) || items.length < 1 || items.length > MAX_ACTIONS)
      throw invalid(
        `1 validation error detected: Value at 'transactItems' failed to satisfy constraint: Member must have length less than or equal to ${MAX_ACTIONS} and greater than or equal to 1`,
      );
    const token = data.ClientRequestToken;
    if (token !== undefined && (typeof token !== 'string' || token.length < 1 || token.length > 36))
      throw invalid(
        "1 validation error detected: Value at 'clientRequestToken' failed to satisfy constraint: Member must have length less than or equal to 36",
      );
    return { puts: items.map(readPut), token };
  }

  const getTable = (name: string): Promise<Table> =>
    new Promise((resolve, reject) => store!.getTable(name, (err, t) => (err ? reject(err) : resolve(t as Table))));
  const getItem = (itemDb: ItemDb, key: string): Promise<Item | undefined> =>
    new Promise((resolve, reject) =>
      itemDb.get(key, (err, v) =>
        err && (err as { name?: string }).name !== 'NotFoundError'
          ? reject(err)
          : resolve(err ? undefined : (v as Item)),
      ),
    );

  /** Locks every key of every table (tables in name order, each table's keys at once), runs `body`, releases. */
  function withLocks<T>(groups: [ItemDb, string[]][], body: () => Promise<T>): Promise<T> {
    if (groups.length === 0) return body();
    const [[itemDb, keys], ...rest] = groups as [[ItemDb, string[]], ...[ItemDb, string[]][]];
    return new Promise<T>((resolve, reject) =>
      itemDb.lock(keys, (release) => {
        const done = release(() => undefined);
        withLocks(rest, body).then(
          (v) => (done(null), resolve(v)),
          (e) => (done(null), reject(e)),
        );
      }),
    );
  }

  async function transact(raw: string): Promise<{ status: number; body: unknown }> {
    let data: unknown;
    try {
      data = JSON.parse(raw);
    } catch {
      return { status: 400, body: { __type: 'com.amazon.coral.service#SerializationException' } };
    }
    const { puts, token } = readRequest(data);
    const digest = crypto
      .createHash('sha256')
      .update(raw.replace(/"ClientRequestToken"\s*:\s*"[^"]*"/, ''))
      .digest('hex');
    const now = Date.now();
    for (const [t, v] of tokens) if (now - v.at > TOKEN_MS) tokens.delete(t);
    if (token !== undefined) {
      const seen = tokens.get(token);
      if (seen !== undefined && seen.digest !== digest)
        throw new Refusal(
          'com.amazonaws.dynamodb.v20120810#IdempotentParameterMismatchException',
          'The request uses the same client token as a previous, but non-identical request.',
        );
      if (seen !== undefined) return { status: 200, body: {} };
    }
    const tables = new Map<string, Table>();
    for (const p of puts) if (!tables.has(p.tableName)) tables.set(p.tableName, await getTable(p.tableName));
    const keys: string[] = [];
    let bytes = 0;
    const seen = new Set<string>();
    for (const p of puts) {
      const table = tables.get(p.tableName)!;
      const bad = db.validateItem(p.item, table);
      if (bad !== null && bad !== undefined) throw bad;
      const key = db.createKey(p.item, table);
      if (seen.has(`${p.tableName}\u0000${key}`))
        throw invalid('Transaction request cannot include multiple operations on one item');
      seen.add(`${p.tableName}\u0000${key}`);
      keys.push(key);
      bytes += db.itemSize(p.item);
    }
    if (bytes > MAX_BYTES) throw invalid('Transaction request size exceeds the 4 MB limit');
    const byTable = new Map<string, string[]>();
    puts.forEach((p, i) => byTable.set(p.tableName, [...(byTable.get(p.tableName) ?? []), keys[i]!]));
    const names = [...byTable.keys()].sort();
    const locks = names.map((n): [ItemDb, string[]] => [store!.getItemDb(n), byTable.get(n)!]);
    return withLocks(locks, async () => {
      const current = await Promise.all(puts.map((p, i) => getItem(store!.getItemDb(p.tableName), keys[i]!)));
      const failed = puts.map((p, i) => p.absent !== undefined && current[i] !== undefined && p.absent in current[i]!);
      if (failed.some(Boolean)) {
        const reasons = failed.map((f) =>
          f ? { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' } : { Code: 'None' },
        );
        throw new Refusal(
          'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
          `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`,
          { CancellationReasons: reasons },
        );
      }
      // Secondary indexes first, as dynalite's own putItem does (GSIs are eventually consistent in DynamoDB too).
      for (const [i, p] of puts.entries())
        await new Promise<void>((resolve, reject) =>
          db.updateIndexes(store!, tables.get(p.tableName)!, current[i], p.item, (err) =>
            err ? reject(err) : resolve(),
          ),
        );
      for (const n of names) {
        const ops = puts.flatMap((p, i) =>
          p.tableName === n ? [{ type: 'put' as const, key: keys[i]!, value: p.item }] : [],
        );
        await new Promise<void>((resolve, reject) =>
          store!.getItemDb(n).batch(ops, (err) => (err ? reject(err) : resolve())),
        );
      }
      if (token !== undefined) tokens.set(token, { digest, at: Date.now() });
      return { status: 200, body: {} };
    });
  }

  return function route(rawReq: unknown, rawRes: unknown): boolean {
    const req = rawReq as Req;
    const res = rawRes as Res;
    if (req.method !== 'POST' || req.headers['x-amz-target'] !== TARGET) return false;
    const auth = req.headers.authorization;
    if (auth === undefined || !auth.trim().startsWith('AWS4-')) {
      send(res, 400, {
        __type: 'com.amazon.coral.service#MissingAuthenticationTokenException',
        message: 'Request is missing Authentication Token',
      });
      return true;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk!.length;
      if (size <= MAX_BODY) chunks.push(chunk!);
    });
    req.on('end', () => {
      if (size > MAX_BODY) return send(res, 413, { __type: 'com.amazon.coral.service#RequestEntityTooLarge' });
      if (store === undefined) return refuse(res, new Error('dynalite has not started'));
      transact(Buffer.concat(chunks).toString('utf8')).then(
        (out) => send(res, out.status, out.body),
        (e) => refuse(res, e),
      );
    });
    return true;
  };
}
