/**
 * Per-entry ledger cost next to the evaluation it records, in the same run (goal ≤ 1×).
 *
 *   npm run build && node dist/bench/ledger.bench.js
 *
 * Workload: examples/data-request-intake-triage.json validated and compiled once; the 1,000 facts/evidence pairs are
 * the well-formed lines of examples/requests/triage-batch.jsonl cycled with a per-request salt (identical bytes every run).
 * Baseline: evaluateCompiled per request (strict facts + evidence parsing, §8, canonical disposition bytes).
 * Ledger cost per entry: SHA-256 of the request, facts and evidence bytes and of the disposition bytes, the one
 * builder (every invariant incl. Core §8.3 via canonicalDisposition), RFC 8785 canonicalization, Ed25519 signing
 * and the entry hash — with node:crypto signing and with @noble/ed25519 signing. Also shown: strict re-read +
 * verification of the stored bytes (what `verify` pays per entry).
 */
import './support/node-crypto.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  compilePack,
  evaluateCompiled,
  EVALUATOR_IDENTITY,
  type EvaluationInput,
  type EvaluationResult,
} from '../core/evaluate/index.js';
import { sha256Hex } from '../core/ledger/primitives/bytes.js';
import { buildEntry, parseStoredEntry, verifyParsedEntrySignature } from '../core/ledger/entries/entry.js';
import { ENTRY_FORMAT, type UnsignedEntry } from '../core/ledger/entries/entry-types.js';
import { keyPairFromSeed, signerFromKeyPair, type Signer } from '../core/ledger/primitives/signature.js';
import { validatePack } from '../core/pack/index.js';

const COMMAND = 'npm run build && node dist/bench/ledger.bench.js';
const root = fileURLToPath(new URL('../../', import.meta.url));
const enc = new TextEncoder();

function time(rounds: number, body: () => void): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) body();
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

interface Request {
  readonly id: string;
  readonly bytes: Uint8Array;
  readonly input: EvaluationInput;
}

function requests(n: number): Request[] {
  // The batch file also holds deliberately broken lines (for the CLI's tests); only well-formed requests are used.
  const lines = readFileSync(`${root}examples/requests/triage-batch.jsonl`, 'utf8')
    .split('\n')
    .filter((l) => {
      try {
        const x = JSON.parse(l) as { facts?: unknown };
        return typeof x.facts === 'object' && x.facts !== null && !Array.isArray(x.facts);
      } catch {
        return false;
      }
    });
  const out: Request[] = [];
  for (let i = 0; i < n; i++) {
    const line = JSON.parse(lines[i % lines.length] as string) as { facts: unknown; evidence?: unknown };
    const facts = { ...(line.facts as object), salt: i };
    const id = `bench-${i}`;
    const input: EvaluationInput = {
      facts: enc.encode(JSON.stringify(facts)),
      ...(line.evidence === undefined ? {} : { evidence: enc.encode(JSON.stringify(line.evidence)) }),
      supportedExtensions: new Set<string>(),
      workBudget: 100_000,
    };
    out.push({ id, bytes: enc.encode(JSON.stringify({ requestId: id, facts, evidence: line.evidence })), input });
  }
  return out;
}

function unsignedEntry(
  req: Request,
  result: EvaluationResult,
  seq: number,
  prevHash: string | null,
  keyId: string,
  packDigest: string,
  buildDigest: string,
): UnsignedEntry {
  const common = {
    format: ENTRY_FORMAT,
    logId: 'log-0',
    seq,
    prevHash,
    requestId: req.id,
    requestDigest: sha256Hex(req.bytes),
    correlation: null,
    pack: { id: 'data-request-intake-triage', version: '1.0.0', digest: packDigest },
    specVersion: '0.3.0',
    factsDigest: sha256Hex(req.input.facts),
    evidenceDigest: req.input.evidence === undefined ? null : sha256Hex(req.input.evidence),
    supportedExtensions: [],
    workBudget: 100_000,
    work: result.work,
    evaluator: { name: EVALUATOR_IDENTITY.name, version: EVALUATOR_IDENTITY.version, buildDigest },
    time: '2026-12-02T14:00:00.000Z',
    keyId,
  } as const;
  if (result.kind === 'disposition') {
    return {
      ...common,
      kind: 'disposition',
      disposition: result.disposition,
      dispositionDigest: sha256Hex(result.bytes),
    };
  }
  return { ...common, kind: 'evaluation-error', error: result.error };
}

function main(): void {
  const packBytes = readFileSync(`${root}examples/data-request-intake-triage.json`);
  const validation = validatePack(new Uint8Array(packBytes));
  if (!validation.pack) throw new Error('example pack does not validate');
  const compiled = compilePack(validation.pack);
  const packDigest = sha256Hex(new Uint8Array(packBytes));
  const buildDigest = sha256Hex('bench build');
  const keys = keyPairFromSeed(new Uint8Array(32).fill(42));
  const signers: Record<'node' | 'noble', Signer> = {
    node: signerFromKeyPair(keys, 'node'),
    noble: signerFromKeyPair(keys, 'noble'),
  };

  const reqs = requests(1_000);
  const results = reqs.map((r) => evaluateCompiled(compiled, r.input));
  let sink = 0;

  const evalRound = (): void => {
    for (const r of reqs) sink += evaluateCompiled(compiled, r.input).work;
  };
  const ledgerRound = (signer: Signer) => (): void => {
    let prev: string | null = null;
    for (let i = 0; i < reqs.length; i++) {
      const built = buildEntry(
        unsignedEntry(
          reqs[i] as Request,
          results[i] as EvaluationResult,
          i,
          prev,
          signer.keyId,
          packDigest,
          buildDigest,
        ),
        signer,
      );
      prev = built.entryHash;
      sink += built.body.length;
    }
  };
  const bodies: string[] = [];
  {
    let prev: string | null = null;
    for (let i = 0; i < reqs.length; i++) {
      const b = buildEntry(
        unsignedEntry(reqs[i] as Request, results[i] as EvaluationResult, i, prev, keys.keyId, packDigest, buildDigest),
        signers.node,
      );
      prev = b.entryHash;
      bodies.push(b.body);
    }
  }
  const verifyRound = (): void => {
    for (const b of bodies) {
      const p = parseStoredEntry(b);
      if (!p.ok || !verifyParsedEntrySignature(p.value, keys.publicKey)) throw new Error('bench entry does not verify');
      sink += 1;
    }
  };

  // Warm up every path, then measure.
  evalRound();
  ledgerRound(signers.node)();
  ledgerRound(signers.noble)();
  verifyRound();
  const per = (seconds: number, rounds: number): number => (seconds / (rounds * reqs.length)) * 1e6;
  const evalUs = per(time(20, evalRound), 20);
  const nodeUs = per(time(10, ledgerRound(signers.node)), 10);
  const nobleUs = per(time(2, ledgerRound(signers.noble)), 2);
  const noSignUs = per(time(10, ledgerRound({ keyId: keys.keyId, sign: () => new Uint8Array(64) })), 10);
  const verifyUs = per(time(5, verifyRound), 5);
  const message = new TextEncoder().encode(bodies[0] as string);
  const signOnlyUs = per(
    time(5, () => {
      for (let i = 0; i < reqs.length; i++) sink += signers.node.sign(message)[0] as number;
    }),
    5,
  );
  const kinds = results.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.kind]: (acc[r.kind] ?? 0) + 1 }), {});
  const avgBytes = Math.round(bodies.reduce((a, b) => a + b.length, 0) / bodies.length);

  const f = (x: number): string => x.toFixed(1).padStart(8);
  const ratio = (x: number): string => `${(x / evalUs).toFixed(2)}×`;
  console.log(
    `ledger bench — ${reqs.length} requests (${JSON.stringify(kinds)}), average entry ${avgBytes} bytes; node ${process.version}`,
  );
  console.log(`  evaluation (baseline, evaluateCompiled)              ${f(evalUs)} µs/request`);
  console.log(`  entry: digests + build + canonicalize + hash, no sig ${f(noSignUs)} µs/entry  ${ratio(noSignUs)}`);
  console.log(
    `  entry incl. Ed25519 signing via node:crypto          ${f(nodeUs)} µs/entry  ${ratio(nodeUs)}  (goal ≤ 1×)`,
  );
  console.log(`  entry incl. Ed25519 signing via @noble/ed25519       ${f(nobleUs)} µs/entry  ${ratio(nobleUs)}`);
  console.log(
    `  of which Ed25519 signing alone (node:crypto)         ${f(signOnlyUs)} µs/entry  ${ratio(signOnlyUs)}  (a floor no entry format can go below)`,
  );
  console.log(
    `  strict re-read + signature check (node:crypto)       ${f(verifyUs)} µs/entry  (≈ ${Math.round(1e6 / verifyUs).toLocaleString('en-US')} entries/s)`,
  );
  console.log(`  reproduce: ${COMMAND}${sink === -1 ? ' ' : ''}`);
}

main();
