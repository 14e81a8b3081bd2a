/**
 * Witnesses over the wire on the local stack (started here on port 0): `docket checkpoint` publishes checkpoint
 * notes into the table, `docket witness` cosigns them — with its own key and state, and as a client of an
 * add-checkpoint HTTP endpoint — and `docket verify --witnesses` is ok; then an attacker with only the DynamoDB API
 * deletes the tail of a log with its checkpoint, note and cosignatures, and both the witness and verify say so.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../cli/io.js';
import { run as checkpoint } from '../../cli/commands/checkpoint.js';
import { run as verify } from '../../cli/commands/verify.js';
import { run as witness } from '../../cli/commands/witness.js';
import { witnessServer } from '../../cli/witness/http.js';
import { loadWitnessState, saveWitnessState } from '../../cli/witness/state-file.js';
import { parseWitnessKey } from '../../cli/witness/witness-key-file.js';
import { BUILD, buildLog } from '../../conformance/ledger/fixtures.js';
import { sha256, utf8Bytes } from '../../core/ledger/primitives/bytes.js';
import { parseCheckpointOrigin } from '../../core/ledger/checkpoints/checkpoint-note.js';
import { keyPairFromSeed } from '../../core/ledger/primitives/signature.js';
import { isAllowedAuthority, readTrustPolicy } from '../../core/ledger/trust-policy/trust-policy.js';
import { WitnessService } from '../../core/ledger/witness/witness-service.js';
import { signingKeyDocument } from '../../adapters/signing-key.js';
import { trustPolicyDocument } from '../../stack/local-files.js';
import { startE2e, type E2eWorld } from './harness.js';

const STAGE = 'witness';
let w: E2eWorld;
let flags: string[];
let logId: string;
const dir = mkdtempSync(join(tmpdir(), 'docket-witness-e2e-'));
const f = (name: string) => join(dir, name);

async function cli(cmd: typeof verify, argv: string[]) {
  const io = memoryIo();
  const code = await cmd([...argv, ...flags], io);
  return { code, out: io.out(), err: io.err() };
}
const lines = (s: string) =>
  s
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

beforeAll(async () => {
  w = await startE2e({ stage: STAGE });
  flags = ['--endpoint', w.stack.endpoint, '--region', w.stack.region, '--stage', STAGE];
  const logIds = JSON.parse(w.env.LOG_IDS!) as string[];
  logId = logIds[0]!;
  for (const e of buildLog(
    logId,
    6,
    () => w.keys,
    () => ({}),
    STAGE,
  ))
    await w.store.putEntryIfAbsent(e);
  writeFileSync(f('signing-key.json'), signingKeyDocument(w.keys));
  // The checkpoint key is a second key, never the entry key (ADR 0120).
  const checkpointKeys = keyPairFromSeed(sha256(utf8Bytes('witness e2e checkpoint key')));
  writeFileSync(f('checkpoint-key.json'), signingKeyDocument(checkpointKeys));
  writeFileSync(
    f('policy.json'),
    trustPolicyDocument({
      keys: w.keys,
      checkpointKey: checkpointKeys,
      logIds,
      environment: STAGE,
      table: w.env.LEDGER_TABLE!,
      evaluatorBuilds: [BUILD],
    }),
  );
}, 120_000);
afterAll(async () => {
  await w?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const verifyArgs = () => [
  '--policy',
  f('policy.json'),
  '--checkpoints',
  f('checkpoints.json'),
  '--witnesses',
  f('witness-policy.json'),
  '--cosigned',
  f('state.json'),
];

/** `docket checkpoint` of every log with the separate checkpoint key, exporting checkpoints and notes. */
const checkpointNow = () =>
  cli(checkpoint, [
    '--key',
    f('checkpoint-key.json'),
    '--policy',
    f('policy.json'),
    '--out',
    f('checkpoints.json'),
    '--notes-out',
    f('notes.json'),
    '--logs',
    (JSON.parse(w.env.LOG_IDS!) as string[]).join(','),
  ]);

describe('witnesses over the local stack', () => {
  it('checkpoint publishes notes, the witness cosigns them, and verify --witnesses is ok', async () => {
    const cp = await checkpointNow();
    expect(cp.code).toBe(0);
    expect(readFileSync(f('notes.json'), 'utf8')).toContain(`docket/${STAGE}/${w.env.LEDGER_TABLE}/${logId}\\n6\\n`);

    const kg = await cli(witness, [
      'keygen',
      '--name',
      'e2e.example/w1',
      '--out',
      f('wk.json'),
      '--policy-out',
      f('witness-policy.json'),
    ]);
    expect(kg.code).toBe(0);
    expect(kg.out).not.toContain(JSON.parse(readFileSync(f('wk.json'), 'utf8')).seed);

    // Before any witness ran, the newest checkpoints are unwitnessed.
    const before = await cli(verify, [...verifyArgs().slice(0, -2), '--cosigned', f('notes.json')]);
    expect(before.code).toBe(1);
    expect(before.out).toContain('"code":"unwitnessed-anchor"');

    const run = await cli(witness, [
      '--key',
      f('wk.json'),
      '--state',
      f('state.json'),
      '--policy',
      f('policy.json'),
      '--notes-out',
      f('notes.json'),
    ]);
    expect(run.code, run.err).toBe(0);
    const mine = lines(run.out).find((l) => l.logId === logId)!;
    expect(mine).toMatchObject({ outcome: 'cosigned', treeSize: 6 });

    const ok = await cli(verify, verifyArgs());
    expect(ok.out).toContain('"ok":true');
    expect(ok.code).toBe(0);
    // The table's own cosignatures suffice too (no file).
    const fromTable = await cli(verify, [...verifyArgs().slice(0, -2), '--cosigned', f('notes.json')]);
    expect(fromTable.code, fromTable.out).toBe(0);
  });

  it('docket witness --url speaks add-checkpoint to an HTTP witness and stores its cosignature in the table', async () => {
    const policy = readTrustPolicy(new Uint8Array(readFileSync(f('policy.json'))));
    if (!policy.ok) throw new Error('policy');
    const key = parseWitnessKey(readFileSync(f('wk.json'), 'utf8'), 'wk');
    const remoteKey = { ...key, name: 'e2e.example/remote' };
    const service = new WitnessService(
      loadWitnessState(f('remote-state.json')),
      {
        policy: policy.value,
        knowsOrigin: (o) => {
          const x = parseCheckpointOrigin(o);
          return x !== null && isAllowedAuthority(policy.value, x);
        },
        key: remoteKey,
      },
      () => Math.floor(Date.now() / 1000),
      (s) => saveWitnessState(f('remote-state.json'), s),
    );
    const server = witnessServer(service, () => undefined);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as { port: number }).port;
      const url = `http://127.0.0.1:${port}/add-checkpoint`;
      const first = await cli(witness, ['--url', url, '--policy', f('policy.json'), '--notes-out', f('notes2.json')]);
      expect(first.code, first.err).toBe(0);
      expect(lines(first.out).find((l) => l.logId === logId)).toMatchObject({ outcome: 'cosigned' });
      // A second run starts from old 0, learns the witness's size from its 409 and is cosigned again.
      const again = await cli(witness, ['--url', url, '--policy', f('policy.json'), '--notes-out', f('notes2.json')]);
      expect(again.code, again.err).toBe(0);
      expect(readFileSync(f('notes2.json'), 'utf8')).toContain('e2e.example/remote');
      expect(loadWitnessState(f('remote-state.json')).size).toBeGreaterThan(0);
      const bad = await fetch(url, { method: 'POST', body: 'old 0\n\nnot a note\n' });
      expect(bad.status).toBe(400);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('an attacker deleting entries 4–5 with their checkpoint, note and cosignatures is caught by the witness and by verify', async () => {
    const table = w.env.LEDGER_TABLE!;
    const items = await w.dynamodb.send(new ScanCommand({ TableName: table, ConsistentRead: true }));
    const doomed = (items.Items ?? []).filter((i) => {
      const pk = i.pk!.S!;
      const sk = Number(i.sk!.N);
      return (
        (pk === `log#${logId}` && sk >= 4) ||
        (pk === `ckpt#${logId}` && sk === 6) ||
        (pk === `note#${logId}` && sk === 6) ||
        pk === `cosig#${logId}#6` ||
        (pk.startsWith('req#') && i.logId?.S === logId && Number(i.seq?.N) >= 4)
      );
    });
    expect(doomed.length).toBeGreaterThanOrEqual(4);
    for (const i of doomed)
      await w.dynamodb.send(new DeleteItemCommand({ TableName: table, Key: { pk: i.pk!, sk: i.sk! } }));
    const cp = await checkpointNow();
    expect(cp.code).toBe(0);

    // Without witnesses the deletion passes (the table's checkpoints and markers were removed with it).
    const blind = await cli(verify, ['--policy', f('policy.json'), '--checkpoints', f('checkpoints.json')]);
    expect(blind.code, blind.out).toBe(0);

    const run = await cli(witness, [
      '--key',
      f('wk.json'),
      '--state',
      f('state.json'),
      '--policy',
      f('policy.json'),
      '--notes-out',
      f('notes.json'),
    ]);
    expect(run.code).toBe(1);
    expect(lines(run.out).find((l) => l.logId === logId)).toMatchObject({
      outcome: 'refused',
      finding: 'rollback',
      treeSize: 4,
      witnessSize: 6,
    });

    const caught = await cli(verify, verifyArgs());
    expect(caught.code).toBe(1);
    expect(JSON.parse(caught.out).findings).toContainEqual({ code: 'rollback', logId, treeSize: 6, entries: 4 });
  });
});
