import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SSMClient } from '@aws-sdk/client-ssm';
import { toHex } from '../../core/ledger/primitives/bytes.js';
import { loadCheckpointSigner, loadTrustPolicy } from '../../adapters/checkpoint-key.js';
import { signingKeyDocument } from '../../adapters/signing-key.js';
import { CHECKPOINT_KEYS, KEYS } from '../ledger/fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'docket-checkpoint-key-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const POLICY = JSON.stringify({
  format: 'docket.trust-policy/2',
  logs: ['log-a'],
  keys: [
    {
      keyId: KEYS.keyId,
      publicKey: toHex(KEYS.publicKey),
      role: 'entries',
      validity: [{ logId: 'log-a', fromSeq: 0, toSeq: null }],
    },
    {
      keyId: CHECKPOINT_KEYS.keyId,
      publicKey: toHex(CHECKPOINT_KEYS.publicKey),
      role: 'checkpoints',
      validity: [{ logId: 'log-a', fromSeq: 0, toSeq: null }],
    },
  ],
  authorities: [{ environment: 'prod', table: 'docket-prod-ledger' }],
  evaluatorBuilds: [],
});

describe('the checkpoint function’s key and trust policy', () => {
  it('loads the local checkpoint key file and never the entry key', async () => {
    const file = join(dir, 'checkpoint-key.json');
    writeFileSync(file, signingKeyDocument(CHECKPOINT_KEYS));
    const entryFile = join(dir, 'signing-key.json');
    writeFileSync(entryFile, signingKeyDocument(KEYS));
    const s = await loadCheckpointSigner({ DOCKET_CHECKPOINT_KEY_FILE: file, DOCKET_SIGNING_KEY_FILE: entryFile });
    expect(s.keyId).toBe(CHECKPOINT_KEYS.keyId);
    await expect(loadCheckpointSigner({ DOCKET_SIGNING_KEY_FILE: entryFile })).rejects.toThrow(
      /neither DOCKET_CHECKPOINT_KEY_FILE nor CHECKPOINT_KMS_KEY_ID/,
    );
    await expect(loadCheckpointSigner({ DOCKET_CHECKPOINT_KEY_FILE: join(dir, 'absent.json') })).rejects.toThrow(
      /cannot read the checkpoint key file/,
    );
  });

  it('reads the trust policy from a file, or from the SSM parameter over the SSM JSON protocol, strictly', async () => {
    const file = join(dir, 'trust-policy.json');
    writeFileSync(file, POLICY);
    expect((await loadTrustPolicy({ DOCKET_TRUST_POLICY_FILE: file })).format).toBe('docket.trust-policy/2');

    const asked: unknown[] = [];
    let value = POLICY;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        asked.push([req.headers['x-amz-target'], JSON.parse(body)]);
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
        res.end(JSON.stringify({ Parameter: { Name: '/docket/prod/trust-policy', Type: 'String', Value: value } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const ssm = () =>
      new SSMClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
    try {
      const p = await loadTrustPolicy({ TRUST_POLICY_PARAMETER: '/docket/prod/trust-policy' }, ssm);
      expect(p.keys.map((k) => k.roles)).toEqual([['entries'], ['checkpoints']]);
      expect(asked).toEqual([['AmazonSSM.GetParameter', { Name: '/docket/prod/trust-policy' }]]);
      value = '{"format":"docket.trust-policy/2"}';
      await expect(loadTrustPolicy({ TRUST_POLICY_PARAMETER: '/docket/prod/trust-policy' }, ssm)).rejects.toThrow(
        /parameter \/docket\/prod\/trust-policy: a policy has exactly/,
      );
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
    await expect(loadTrustPolicy({})).rejects.toThrow(/neither DOCKET_TRUST_POLICY_FILE nor TRUST_POLICY_PARAMETER/);
  });
});
