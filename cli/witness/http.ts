/**
 * tlog-witness over HTTP: `POST <prefix>/add-checkpoint`. The server hands each body to a WitnessService and
 * answers with its status, Content-Type and body; the client posts a body and returns the same three.
 */
import { createServer, type Server } from 'node:http';
import type { AddCheckpointResponse } from '../../core/ledger/index.js';
import type { WitnessService } from '../../core/ledger/index.js';

/** Request bodies larger than this are refused (413): 64 proof lines and a note with 64 signatures fit easily. */
export const MAX_BODY_BYTES = 64 * 1024;

export function witnessServer(service: WitnessService, onError: (e: unknown) => void): Server {
  return createServer((req, res) => {
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    };
    if (req.url !== '/add-checkpoint') return send(404, 'text/plain; charset=utf-8', 'not found\n');
    if (req.method !== 'POST') return send(405, 'text/plain; charset=utf-8', 'POST only\n');
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES && !refused) {
        refused = true;
        send(413, 'text/plain; charset=utf-8', 'request too large\n');
        req.destroy();
      } else if (!refused) chunks.push(c);
    });
    req.on('end', () => {
      if (refused) return;
      const bytes = Buffer.concat(chunks);
      const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
      let body: string;
      try {
        body = text.decode(bytes);
      } catch {
        return send(400, 'text/plain; charset=utf-8', 'the body is UTF-8\n');
      }
      service.addCheckpoint(body).then(
        (out) => send(out.response.status, out.response.contentType, out.response.body),
        (e: unknown) => {
          onError(e);
          send(500, 'text/plain; charset=utf-8', 'the witness could not persist its state\n');
        },
      );
    });
  });
}

/** Posts one add-checkpoint body to a witness (`url` ends in /add-checkpoint). */
export async function postAddCheckpoint(url: string, body: string): Promise<AddCheckpointResponse> {
  const r = await fetch(url, { method: 'POST', body, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  const status = r.status as AddCheckpointResponse['status'];
  return { status, contentType: r.headers.get('content-type') ?? '', body: await r.text() };
}
