/**
 * The console server's HTTP rules (docs/console.md, ADR 0181) over a real socket: read-only, strict headers, the
 * app for every page path, the offline page only when built, no traversal, and a Host check.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsoleServer, type RunningConsole } from '../../cli/console/server.js';
import { openFileSource } from '../../cli/console/source.js';
import { offlineCsp } from '../../cli/console/http-policy.js';
import { writeLedgerFiles, type LedgerFiles } from './ledger-files.js';

let files: LedgerFiles;
let dist: string;
let c: RunningConsole;

beforeAll(async () => {
  files = writeLedgerFiles(['log-a', 'log-b'], 12);
  dist = mkdtempSync(join(tmpdir(), 'docket-console-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>app</title>');
  writeFileSync(join(dist, 'assets', 'app-1.js'), 'console.log(1)');
  c = await startConsoleServer({ source: await openFileSource(files), distDir: dist, host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await c?.close();
  rmSync(files.dir, { recursive: true, force: true });
  rmSync(dist, { recursive: true, force: true });
});

function call(method: string, path: string, host?: string) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>(
    (resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: c.port, method, path, headers: host ? { Host: host } : {} },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        },
      );
      req.on('error', reject);
      req.end();
    },
  );
}

describe('docket console server', () => {
  it('listens on 127.0.0.1 and names its URL', () => {
    expect(c.url).toBe(`http://127.0.0.1:${c.port}/`);
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])('refuses %s with 405 on every path', async (method) => {
    for (const path of ['/', '/api/overview', '/api/entries', '/api/verify', '/api/replay/log-a-req-0']) {
      const r = await call(method, path);
      expect(r.status).toBe(405);
      expect(r.headers.allow).toBe('GET, HEAD');
    }
  });

  it('sends a strict Content-Security-Policy, nosniff and no framing with every response', async () => {
    for (const path of ['/', '/entries', '/api/overview', '/assets/app-1.js', '/nope']) {
      const r = await call('GET', path);
      const csp = String(r.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(r.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('answers every page path with the app, so each page has a stable URL', async () => {
    for (const path of [
      '/',
      '/entries?kind=disposition',
      '/verify',
      '/receipt',
      '/entry/log-a-req-0',
      '/entry/a%2Fb',
    ]) {
      const r = await call('GET', path);
      expect(r.status, path).toBe(200);
      expect(r.body).toContain('<title>app</title>');
    }
    expect((await call('GET', '/entry/x/y')).status).toBe(404);
    expect((await call('GET', '/receipt/x')).status).toBe(404);
  });

  it('serves assets by plain name only', async () => {
    expect((await call('GET', '/assets/app-1.js')).headers['content-type']).toContain('text/javascript');
    expect((await call('GET', '/assets/..%2Findex.html')).status).toBe(404);
    expect((await call('GET', '/assets/../../package.json')).status).toBe(404);
  });

  it('says the offline page is not built when console/dist/offline.html is missing', async () => {
    const r = await call('GET', '/offline');
    expect(r.status).toBe(404);
    expect(r.body).toContain('not built');
  });

  it('serves a built offline page with its inline script allowed by hash and no network', async () => {
    const html = '<!doctype html><script type="module">verify()</script><style>p{}</style>';
    writeFileSync(join(dist, 'offline.html'), html);
    try {
      const r = await call('GET', '/offline');
      expect(r.status).toBe(200);
      expect(r.body).toBe(html);
      const csp = String(r.headers['content-security-policy']);
      expect(csp).toBe(offlineCsp(html));
      expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
      expect(csp).toContain("connect-src 'none'");
      expect(csp).not.toContain('unsafe-inline');
    } finally {
      rmSync(join(dist, 'offline.html'));
    }
  });

  it('refuses a request whose Host header names another site (DNS rebinding)', async () => {
    expect((await call('GET', '/api/overview', 'attacker.example:80')).status).toBe(421);
    expect((await call('GET', '/api/overview', `localhost:${c.port}`)).status).toBe(200);
  });

  it('lists, filters and pages the entries', async () => {
    const all = JSON.parse((await call('GET', '/api/entries?pageSize=5')).body) as {
      total: number;
      entries: unknown[];
    };
    expect(all.total).toBe(24);
    expect(all.entries).toHaveLength(5);
    const errors = JSON.parse((await call('GET', '/api/entries?kind=evaluation-error&log=log-b')).body) as {
      total: number;
      entries: { kind: string; logId: string }[];
    };
    expect(errors.total).toBe(4);
    expect(errors.entries.every((e) => e.kind === 'evaluation-error' && e.logId === 'log-b')).toBe(true);
    const one = JSON.parse((await call('GET', '/api/entries?requestId=log-a-req-11')).body) as { total: number };
    expect(one.total).toBe(1);
  });

  it('shows an entry with a valid signature and an inclusion proof that reaches the checkpoint root', async () => {
    const r = JSON.parse((await call('GET', '/api/entry/log-a-req-5')).body) as {
      signature: string;
      inclusion: { verified: boolean; steps: unknown[]; checkpoint: { treeSize: number } };
    };
    expect(r.signature).toBe('ok');
    expect(r.inclusion.verified).toBe(true);
    expect(r.inclusion.checkpoint.treeSize).toBe(12);
    expect(r.inclusion.steps.length).toBeGreaterThan(0);
    expect((await call('GET', '/api/entry/no-such-request')).status).toBe(404);
  });

  it('says replay needs a stack in files mode', async () => {
    const r = JSON.parse((await call('GET', '/api/replay/log-a-req-0')).body) as { available: boolean; reason: string };
    expect(r).toMatchObject({ available: false });
    expect(r.reason).toContain('request archive');
  });

  it('streams verify progress and an ok verdict as server-sent events', async () => {
    const r = await call('GET', '/api/verify');
    expect(r.headers['content-type']).toContain('text/event-stream');
    expect(r.body).toContain('event: progress');
    const verdict = /event: verdict\ndata: (.*)\n/.exec(r.body);
    expect(verdict).not.toBeNull();
    expect(JSON.parse(verdict![1]!)).toMatchObject({ ok: true, findings: [] });
  });
});

describe('the console verify over a stage whose request archive cannot be read', () => {
  it('answers no verdict rather than an ok without the archive cross-check', async () => {
    const source = {
      ...(await openFileSource(files)),
      archiveCheck: () => Promise.reject(new Error('requests table: connection refused')),
    };
    const broken = await startConsoleServer({ source, distDir: dist, host: '127.0.0.1', port: 0 });
    try {
      const body = await new Promise<string>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: broken.port, path: '/api/verify' }, (res) => {
          let b = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (b += d));
          res.on('end', () => resolve(b));
        });
        req.on('error', reject);
        req.end();
      });
      expect(body).not.toContain('event: verdict');
      const nv = /event: no-verdict\ndata: (.*)\n/.exec(body);
      expect(JSON.parse(nv![1]!)).toEqual({
        code: 'store-read-incomplete',
        detail: 'requests table: connection refused',
      });
    } finally {
      await broken.close();
    }
  });
});
