/**
 * C2SP tlog-witness over HTTP, one test per status code (docs/verify.md "Witnesses"; ADR 0301): `docket witness
 * serve`'s server (cli/witness/http.ts) over a real socket on 127.0.0.1, and the add-checkpoint client
 * (`docket witness --url`) against it and against a witness that answers the other way.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postAddCheckpoint, witnessServer } from '../../cli/witness/http.js';
import { encodeBase64 } from '../../core/ledger/notes/signed-note.js';
import { serializeAddCheckpointRequest, type AddCheckpointResponse } from '../../core/ledger/witness/add-checkpoint.js';
import { submitCheckpoint } from '../../core/ledger/witness/submit-checkpoint.js';
import { WitnessService } from '../../core/ledger/witness/witness-service.js';
import { emptyWitnessState } from '../../core/ledger/witness/witness-state.js';
import { noteFor, ORIGIN, OTHER_KEYS, POLICY, proofBetween, signerOf, WITNESS } from './fixtures.js';

const NOW = 1_767_225_600;
let server: Server;
let url: string;

/** A fresh witness that has cosigned size 4 of the log. */
async function witnessAt4(): Promise<void> {
  const svc = new WitnessService(
    emptyWitnessState(),
    { policy: POLICY, knowsOrigin: (o) => o === ORIGIN, key: WITNESS },
    () => NOW,
    async () => undefined,
  );
  await svc.addCheckpoint(`old 0\n\n${await noteFor(4)}`);
  await new Promise<void>((r) => server.close(() => r()));
  server = witnessServer(svc, () => undefined);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/add-checkpoint`;
}

beforeAll(async () => {
  server = witnessServer(
    new WitnessService(
      emptyWitnessState(),
      { policy: POLICY, knowsOrigin: () => false, key: WITNESS },
      () => NOW,
      async () => undefined,
    ),
    () => undefined,
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

const body = async (old: number, size: number, fork = Infinity): Promise<string> =>
  serializeAddCheckpointRequest({
    oldSize: old,
    proof: proofBetween(old, size, fork),
    note: await noteFor(size, fork),
  });
const post = (b: string): Promise<AddCheckpointResponse> => postAddCheckpoint(url, b);

describe('docket witness serve answers add-checkpoint as tlog-witness specifies', () => {
  it('200: a checkpoint consistent with the one it cosigned, with the cosignature line as the body', async () => {
    await witnessAt4();
    const r = await post(await body(4, 6));
    expect(r.status).toBe(200);
    expect(r.body).toMatch(/^— auditor\.example\/w1 [A-Za-z0-9+/]+=*\n$/);
  });

  it('404: a checkpoint of an origin the witness does not follow', async () => {
    await witnessAt4();
    const other = await noteFor(4, Infinity, signerOf(OTHER_KEYS), 'docket/other/docket-other-ledger/log-0');
    expect((await post(`old 0\n\n${other}`)).status).toBe(404);
  });

  it('403: no log signature verifies under the keys the witness trusts for the origin', async () => {
    await witnessAt4();
    expect((await post(`old 4\n\n${await noteFor(4, Infinity, signerOf(OTHER_KEYS))}`)).status).toBe(403);
  });

  it('400: an old size larger than the checkpoint size, and a malformed body', async () => {
    await witnessAt4();
    expect((await post(`old 6\n\n${await noteFor(4)}`)).status).toBe(400);
    expect((await post('old 4\nnot base64!\n\n')).status).toBe(400);
    expect((await post(`old 04\n\n${await noteFor(4)}`)).status).toBe(400);
  });

  it('409: an old size other than the size it cosigned, stating that size as text/x.tlog.size', async () => {
    await witnessAt4();
    const r = await post(await body(0, 6));
    expect(r).toEqual({ status: 409, contentType: 'text/x.tlog.size', body: '4\n' });
  });

  it('422: the old size matches but the consistency proof fails — a fork at a later size', async () => {
    await witnessAt4();
    const proof = proofBetween(4, 6, 2);
    const r = await post(`old 4\n${proof.map((h) => `${encodeBase64(h)}\n`).join('')}\n${await noteFor(6, 2)}`);
    expect(r.status).toBe(422);
  });

  it('422: the same size with another root (the empty proof between equal sizes fails), never 409', async () => {
    await witnessAt4();
    const r = await post(await body(4, 4, 2));
    expect(r.status).toBe(422);
    expect(r.contentType).not.toBe('text/x.tlog.size');
    // The witness still holds size 4 with its first root: the honest checkpoint is cosigned.
    expect((await post(await body(4, 4))).status).toBe(200);
  });
});

describe('docket witness --url, the client, as tlog-witness specifies', () => {
  const submit = async (
    treeSize: number,
    oldSize: number,
    fork: number,
    send: (b: string) => Promise<AddCheckpointResponse>,
  ) => {
    const sent: number[] = [];
    const outcome = await submitCheckpoint({
      note: await noteFor(treeSize, fork),
      treeSize,
      oldSize,
      proofFor: async (m, n) => proofBetween(m, n, fork),
      send: (b) => {
        sent.push(Number(b.slice(4, b.indexOf('\n'))));
        return send(b);
      },
    });
    return { outcome, sent };
  };

  it('on 409 retries once from the stated size, and is cosigned', async () => {
    await witnessAt4();
    const r = await submit(6, 0, Infinity, post);
    expect([r.outcome.outcome, r.sent]).toEqual(['cosigned', [0, 4]]);
  });

  it('on 422 for another root at the same size stops with equivocation after the one retry: no loop', async () => {
    await witnessAt4();
    const r = await submit(4, 0, 2, post);
    expect(r.outcome).toEqual({ outcome: 'refused', refusal: 'equivocation', status: 422, witnessSize: null });
    expect(r.sent).toEqual([0, 4]);
  });

  it('on 422 for a fork at a later size reports inconsistent and does not retry', async () => {
    await witnessAt4();
    const r = await submit(6, 4, 2, post);
    expect(r.outcome).toMatchObject({ outcome: 'refused', refusal: 'inconsistent', status: 422 });
    expect(r.sent).toEqual([4]);
  });

  it('against a witness that answers 409 stating the very size it sent, stops with equivocation: no loop', async () => {
    const always409 = async (): Promise<AddCheckpointResponse> => ({
      status: 409,
      contentType: 'text/x.tlog.size',
      body: '4\n',
    });
    const r = await submit(4, 0, 2, always409);
    expect(r.outcome).toMatchObject({ outcome: 'refused', refusal: 'equivocation', status: 409 });
    expect(r.sent).toEqual([0, 4]);
  });

  it('against a witness whose size keeps moving, gives up after one retry (size-mismatch)', async () => {
    let n = 10;
    const moving = async (): Promise<AddCheckpointResponse> => ({
      status: 409,
      contentType: 'text/x.tlog.size',
      body: `${n++}\n`,
    });
    const r = await submit(20, 0, Infinity, moving);
    expect(r.outcome).toMatchObject({ outcome: 'refused', refusal: 'size-mismatch', status: 409 });
    expect(r.sent).toEqual([0, 10]);
  });
});
