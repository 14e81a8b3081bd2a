/**
 * The console's HTTP server (docs/console.md): the built app for every page path (client routing with real paths),
 * its assets, the offline page when built, and a small read-only JSON API over a ConsoleSource. Nothing here writes:
 * GET and HEAD only (ADR 0181).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withArchiveCheck, type ArchiveVerdict, type Verdict } from '../../core/ledger/index.js';
import type { EntryDetailResponse, LinkedFinding, VerifyVerdict, WitnessView } from '../../core/console-api/index.js';
import { entryDetail } from './entry-detail.js';
import { handoffsOf } from './handoffs.js';
import { DEFAULT_PAGE_SIZE, filterFromQuery, intParam, pageOf } from './entry-query.js';
import { ALLOWED_METHODS, APP_CSP, hostAllowed, offlineCsp, SECURITY_HEADERS } from './http-policy.js';
import { LedgerIndex } from './ledger-index.js';
import { ChartCache, overviewOf } from './overview.js';
import type { ConsoleSource } from './source.js';
import { WITNESS_FINDING_CODES, witnessLogs, witnessPolicySummary } from './witness-view.js';

/** The repository (or installed package) root: the nearest folder up from this module with a package.json. */
export function packageRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${from}`);
    dir = up;
  }
  return dir;
}

/** A file of this package, found from this module: from dist/ and from the sources alike. */
export const packageFile = (rel: string): string => join(packageRoot(), rel);

export const defaultDistDir = (): string => packageFile('console/dist');

export interface ConsoleServerOptions {
  readonly source: ConsoleSource;
  /** The built app (index.html, assets/, offline.html): console/dist by default. */
  readonly distDir?: string;
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** A saved `docket graph evaluate` result, shown at /graph-run (docs/console.md "Graph runs", ADR 0341). */
  readonly graphResult?: unknown;
}

export interface RunningConsole {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

/** Paths the app routes on the client; the server answers each with the app's index.html. */
const PAGE = /^\/(?:|entries|verify|receipt|graph-run|entry\/[^/]+)$/;
/** An asset name as Vite writes them: one segment, no traversal. */
const ASSET = /^\/assets\/([A-Za-z0-9_.-]+)$/;

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  extra: Record<string, string> = {},
) {
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Security-Policy': APP_CSP, 'Content-Type': type, ...extra });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

const json = (res: ServerResponse, status: number, value: unknown) =>
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value), { 'Cache-Control': 'no-store' });

const text = (res: ServerResponse, status: number, message: string) =>
  send(res, status, 'text/plain; charset=utf-8', `${message}\n`, { 'Cache-Control': 'no-store' });

export function startConsoleServer(o: ConsoleServerOptions): Promise<RunningConsole> {
  const dist = o.distDir ?? defaultDistDir();
  const index = new LedgerIndex(o.source.store);
  const charts = new ChartCache(index);
  let port = o.port;

  const requestIdOf = (logId: string, seq: number): string | null =>
    index.log(logId)?.entries.find((e) => e.seq === seq)?.requestId ?? null;

  async function verifyStream(res: ServerResponse): Promise<void> {
    await index.refresh();
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Security-Policy': APP_CSP,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
    });
    const event = (name: string, data: unknown) => res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
    const total = index.size;
    event('progress', { checked: 0, total });
    const every = Math.max(1, Math.floor(total / 100));
    const result = await o.source.verify((checked) => event('progress', { checked, total }), every);
    if (!result.ok) event('no-verdict', result.error);
    else {
      await index.refresh();
      let v: Verdict | ArchiveVerdict = result.value;
      try {
        if (o.source.archiveCheck !== undefined) v = withArchiveCheck(v, await o.source.archiveCheck());
      } catch (e) {
        // As `docket verify`: an archive or queue that cannot be read is no verdict, never an ok without it.
        event('no-verdict', { code: 'store-read-incomplete', detail: (e as Error).message });
        res.end();
        return;
      }
      const findings: LinkedFinding[] = v.findings.map((f) => ({
        ...f,
        entryRequestId: 'seq' in f ? requestIdOf(f.logId, f.seq) : null,
      }));
      const verdict: VerifyVerdict = { ...v, findings };
      event('verdict', verdict);
    }
    res.end();
  }

  let judging: Promise<WitnessView> | null = null;
  /** The witness section: per-log quorum status now, and the witness findings of one verify run (shared). */
  async function witnessView(): Promise<WitnessView> {
    const w = await o.source.witnessInputs();
    const summary = witnessPolicySummary(w);
    if (w === null || summary === null) return { policy: null };
    const trust = o.source.policy;
    const logIds = [...new Set([...(trust?.logs ?? []), ...(await o.source.store.listLogs())])].sort();
    const logs = trust === null ? [] : await witnessLogs(o.source.store, trust, w, logIds);
    const result = await o.source.verify(() => undefined, Number.MAX_SAFE_INTEGER);
    return {
      policy: summary,
      now: w.now,
      logs,
      verdict: result.ok
        ? { ok: true, findings: result.value.findings.filter((f) => WITNESS_FINDING_CODES.has(f.code)) }
        : { ok: false, noVerdict: result.error },
    };
  }

  async function api(path: string, q: URLSearchParams, res: ServerResponse): Promise<void> {
    if (path === '/api/witnesses') {
      judging ??= witnessView().finally(() => (judging = null));
      return json(res, 200, await judging);
    }
    if (path === '/api/verify') return verifyStream(res);
    if (path === '/api/graph-run')
      return o.graphResult === undefined
        ? json(res, 404, { error: 'no-graph-result', detail: 'start the console with --graph-result <file>' })
        : json(res, 200, o.graphResult);
    // The overview paints from per-log reads; only its charts wait for the index (ADR 0230).
    if (path === '/api/overview')
      return json(res, 200, await overviewOf(o.source, witnessPolicySummary(o.source.witnesses?.inputs ?? null)));
    if (path === '/api/overview/chart') return json(res, 200, await charts.get());
    await index.refresh();
    if (path === '/api/entries')
      return json(
        res,
        200,
        pageOf(index.all(), filterFromQuery(q), intParam(q, 'page', 0), intParam(q, 'pageSize', DEFAULT_PAGE_SIZE)),
      );
    // Each of these reads one entry, by the request id it records.
    const about = /^\/api\/(entry|handoffs|pack-rules|graph-rules)\/([^/]+)$/.exec(path);
    if (about) {
      const id = decodeURIComponent(about[2] as string);
      const detail = await entryDetail(index, o.source.store, o.source.policy, id);
      if (detail === null) return json(res, 404, { error: 'no-entry', requestId: id });
      const e = detail.entry;
      if (about[1] === 'entry')
        return json(res, 200, { ...detail, policyProblem: o.source.policyProblem } satisfies EntryDetailResponse);
      if (about[1] === 'handoffs')
        return e === null
          ? json(res, 200, { none: 'the stored bytes are not a readable entry', routes: '', handoffs: [] })
          : json(res, 200, await handoffsOf(e, detail.body, detail.entryHash, o.source.handoffs));
      if (about[1] === 'pack-rules')
        return e?.pack?.digest === undefined
          ? json(res, 200, { registered: false, reason: 'the entry names no pack (or its bytes are unreadable)' })
          : json(res, 200, await o.source.packRules(id, e.pack.digest));
      return e?.kind !== 'graph-run'
        ? json(res, 200, { known: false, reason: 'the entry is not a graph run (or its bytes are unreadable)' })
        : json(res, 200, await o.source.graphRules(e));
    }
    const replay = /^\/api\/replay\/([^/]+)$/.exec(path);
    if (replay) return json(res, 200, await o.source.replay(decodeURIComponent(replay[1] as string)));
    return json(res, 404, { error: 'no-such-endpoint', path });
  }

  function serveFile(res: ServerResponse, file: string, type: string): void {
    if (!existsSync(file)) return text(res, 404, 'not found');
    send(res, 200, type, readFileSync(file));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return send(res, 405, 'text/plain; charset=utf-8', 'the console is read-only: GET and HEAD only\n', {
        Allow: ALLOWED_METHODS,
      });
    }
    if (!hostAllowed(req.headers.host, o.host, port)) return text(res, 421, 'unexpected Host header');
    const url = new URL(req.url ?? '/', 'http://console.invalid');
    const path = url.pathname;
    if (path.startsWith('/api/')) return api(path, url.searchParams, res);
    if (path === '/offline') {
      const file = join(dist, 'offline.html');
      if (!existsSync(file))
        return text(
          res,
          404,
          'the offline verification page is not built here: run "npm run build" (console/dist/offline.html)',
        );
      const html = readFileSync(file, 'utf8');
      return send(res, 200, 'text/html; charset=utf-8', html, { 'Content-Security-Policy': offlineCsp(html) });
    }
    const asset = ASSET.exec(path);
    if (asset) {
      const name = asset[1] as string;
      return serveFile(
        res,
        join(dist, 'assets', name),
        TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream',
      );
    }
    if (PAGE.test(path)) {
      const file = join(dist, 'index.html');
      if (!existsSync(file))
        return text(res, 503, 'the console app is not built here: run "npm run build" (console/dist)');
      return serveFile(res, file, 'text/html; charset=utf-8');
    }
    return text(res, 404, 'not found');
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) json(res, 500, { error: 'internal', detail: (e as Error)?.message ?? String(e) });
      else res.end();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      const addr = server.address();
      port = typeof addr === 'object' && addr !== null ? addr.port : o.port;
      const shown = o.host.includes(':') ? `[${o.host}]` : o.host;
      resolve({
        url: `http://${shown}:${port}/`,
        port,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}
