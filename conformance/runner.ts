/**
 * The conformance runner: reads the committed manifests and input files as bytes, runs every case through the core
 * API (validatePack for documents, evaluateDocuments for evaluations) and compares with the stated expectation.
 * Used by `docket conformance` and by test/conformance/.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import canonicalize from 'canonicalize';
import { evaluateDocuments, type EvaluationResult } from '../core/evaluate/index.js';
import { validatePack, type DraftFeature, type PackValidation } from '../core/pack/index.js';
import { graphSuiteVersion, runGraphCases } from './graph-runner.js';
import type { CaseResult, Suite } from './case-result.js';

export type { CaseResult, Suite } from './case-result.js';

/** A corpus directory under conformance/ and the draft features its manifests require (ADR 0193). */
interface CorpusDir {
  readonly dir: string;
  readonly document: Suite;
  readonly evaluation: Suite;
  readonly features: readonly DraftFeature[];
}
const CORE_CORPUS: CorpusDir = { dir: '', document: 'document', evaluation: 'evaluation', features: [] };
const RFC0008_CORPUS: CorpusDir = {
  dir: 'rfc0008',
  document: 'rfc0008-document',
  evaluation: 'rfc0008-evaluation',
  features: ['rfc0008-quantifiers'],
};

export interface CorpusReport {
  readonly suiteVersions: Partial<Record<Suite, string>>;
  readonly results: readonly CaseResult[];
  readonly passed: number;
  readonly failed: number;
}

export interface RunOptions {
  /** Repository root (default: found from this file's location). */
  readonly root?: string;
  /** §3.3.1 strict validation for the document suite (expectedStrictClass applies). */
  readonly strict?: boolean;
  /** Run only cases whose id contains this text. */
  readonly only?: string;
  /** Run only this suite ('document' or 'evaluation' also selects the draft corpus's suite of that kind). */
  readonly suite?: 'document' | 'evaluation' | 'graph';
  /**
   * Draft features the reader enables. A draft corpus runs, with exactly its required features enabled, only when
   * all of them are listed; the Core corpus always runs with none.
   */
  readonly draftFeatures?: readonly DraftFeature[];
}

interface DocumentCase {
  id: string;
  description: string;
  documentFile: string;
  expectedConformant: boolean;
  expectedClass?: string;
  expectedStrictClass?: string;
  expectedCodes?: string[];
  readerProfiles?: ('base' | 'extended')[];
  expectedDiagnostics?: Record<string, unknown>[];
}

interface EvaluationCase {
  id: string;
  description: string;
  pack: string;
  facts?: unknown;
  factsFile?: string;
  evidenceAvailability?: unknown;
  evidenceAvailabilityFile?: string;
  supportedExtensions: string[];
  workBudget?: number;
  expectedDisposition?: unknown;
  expectedErrorClass?: string;
  expectedErrorPhase?: string;
}

interface Manifest<C> {
  suiteVersion: string;
  cases: C[];
}

/** Walks up from this module (source or dist/) to the directory holding conformance/evaluation/manifest.json. */
export function findRepoRoot(start: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = start;
  for (let i = 0; i < 6; i++) {
    if (
      existsSync(join(dir, 'conformance', 'evaluation', 'manifest.json')) ||
      existsSync(join(dir, 'conformance', 'runner.ts'))
    )
      return dir;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  throw new Error(`cannot find the conformance corpus above ${start}`);
}

const bytesOf = (path: string): Uint8Array => {
  const b = readFileSync(path);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
};
const enc = new TextEncoder();

function readManifest<C>(dir: string, kind: 'document' | 'evaluation'): Manifest<C> {
  // Our own committed file: JSON.parse is fine here (the inputs under test are read as bytes, never through it).
  return JSON.parse(readFileSync(join(dir, kind, 'manifest.json'), 'utf8')) as Manifest<C>;
}

export function runCorpus(options: RunOptions = {}): CorpusReport {
  const root = options.root ?? findRepoRoot();
  const results: CaseResult[] = [];
  const versions: Partial<Record<Suite, string>> = {};
  const wanted = (id: string) => options.only === undefined || id.includes(options.only);
  const enabled = new Set(options.draftFeatures ?? []);
  const corpora = [CORE_CORPUS, RFC0008_CORPUS].filter((k) => k.features.every((f) => enabled.has(f)));
  for (const k of options.suite === 'graph' ? [] : corpora) {
    const dir = join(root, 'conformance', k.dir);
    if (options.suite === undefined || options.suite === 'document') {
      const m = readManifest<DocumentCase>(dir, 'document');
      versions[k.document] = m.suiteVersion;
      for (const c of m.cases)
        if (wanted(c.id)) results.push(runDocumentCase(root, c, options.strict === true, k.dir, k.features));
    }
    if (options.suite === undefined || options.suite === 'evaluation') {
      const m = readManifest<EvaluationCase>(dir, 'evaluation');
      versions[k.evaluation] = m.suiteVersion;
      for (const c of m.cases) if (wanted(c.id)) results.push(runEvaluationCase(root, c, k.dir, k.features));
    }
  }
  if (options.suite === undefined || options.suite === 'graph') {
    // Judgment graphs (docs/graphs.md): conformance/graph/, cases written by hand from graph-semantics.md.
    versions.graph = graphSuiteVersion(root);
    results.push(...runGraphCases(root, wanted));
  }
  const passed = results.filter((r) => r.passed).length;
  return { suiteVersions: versions, results, passed, failed: results.length - passed };
}

/** Runs a case and turns a thrown exception (a bug: core never throws for bad input) into a failed row. */
function guarded(
  suite: Suite,
  c: { id: string; description: string },
  expected: string,
  fn: () => CaseResult,
): CaseResult {
  try {
    return fn();
  } catch (e) {
    return {
      suite,
      id: c.id,
      description: c.description,
      passed: false,
      expected,
      actual: `threw ${(e as Error)?.name ?? 'error'}: ${(e as Error)?.message ?? String(e)}`,
    };
  }
}

export function runDocumentCase(
  root: string,
  c: DocumentCase,
  strict: boolean,
  corpusDir = '',
  draftFeatures: readonly DraftFeature[] = [],
): CaseResult {
  const suite: Suite = corpusDir === '' ? 'document' : 'rfc0008-document';
  const strictDiffers = strict && c.expectedStrictClass !== undefined;
  const expectedClass = strictDiffers ? c.expectedStrictClass : c.expectedClass;
  const expectedConformant = strictDiffers ? c.expectedStrictClass === 'valid' : c.expectedConformant;
  const expected =
    `${expectedConformant ? 'conformant' : 'not conformant'}${expectedClass !== undefined ? ` (${expectedClass})` : ''}` +
    (c.expectedCodes?.length ? ` with ${c.expectedCodes.join(', ')}` : '') +
    (c.expectedDiagnostics ? ` with exactly ${JSON.stringify(c.expectedDiagnostics)}` : '');
  return guarded(suite, c, expected, () => {
    const bytes = bytesOf(join(root, 'conformance', corpusDir, 'document', c.documentFile));
    const v: PackValidation = validatePack(bytes, {
      strict,
      ...(c.readerProfiles ? { supportedProfiles: c.readerProfiles } : {}),
      ...(draftFeatures.length > 0 ? { draftFeatures } : {}),
    });
    const problems: string[] = [];
    if (v.conformant !== expectedConformant) problems.push(`conformant=${v.conformant}`);
    if (expectedClass !== undefined && v.class !== expectedClass) problems.push(`class=${v.class}`);
    for (const code of c.expectedCodes ?? [])
      if (!v.diagnostics.some((d) => d.code === code)) problems.push(`no ${code} diagnostic`);
    if (c.expectedDiagnostics !== undefined) {
      const ok =
        v.diagnostics.length === c.expectedDiagnostics.length &&
        c.expectedDiagnostics.every((want, i) =>
          Object.entries(want).every(([k, val]) => (v.diagnostics[i] as Record<string, unknown>)[k] === val),
        );
      if (!ok)
        problems.push(
          `diagnostics=${JSON.stringify(v.diagnostics.map((d) => ({ code: d.code, profile: d.profile })))}`,
        );
    }
    const actual = `${v.conformant ? 'conformant' : 'not conformant'} (${v.class}); codes ${[...new Set(v.diagnostics.map((d) => d.code))].join(', ') || 'none'}`;
    return {
      suite,
      id: c.id,
      description: c.description,
      passed: problems.length === 0,
      expected,
      actual: problems.length ? `${actual} [${problems.join('; ')}]` : actual,
    };
  });
}

function inputBytes(dir: string, inline: unknown, file: string | undefined): Uint8Array {
  if (file !== undefined) return bytesOf(join(dir, file));
  return enc.encode(JSON.stringify(inline));
}

export function runEvaluationCase(
  root: string,
  c: EvaluationCase,
  corpusDir = '',
  draftFeatures: readonly DraftFeature[] = [],
): CaseResult {
  const suite: Suite = corpusDir === '' ? 'evaluation' : 'rfc0008-evaluation';
  const dir = join(root, 'conformance', corpusDir, 'evaluation');
  const expectDisposition = c.expectedDisposition !== undefined;
  const expectedBytes = expectDisposition ? (canonicalize(c.expectedDisposition) ?? '') : '';
  const expected = expectDisposition
    ? `disposition ${expectedBytes}`
    : `error ${c.expectedErrorClass}/${c.expectedErrorPhase}`;
  return guarded(suite, c, expected, () => {
    const hasEvidence = c.evidenceAvailabilityFile !== undefined || 'evidenceAvailability' in c;
    const result: EvaluationResult = evaluateDocuments({
      pack: bytesOf(join(dir, c.pack)),
      facts: inputBytes(dir, c.facts, c.factsFile),
      ...(hasEvidence ? { evidence: inputBytes(dir, c.evidenceAvailability, c.evidenceAvailabilityFile) } : {}),
      supportedExtensions: new Set(c.supportedExtensions),
      ...(c.workBudget !== undefined ? { workBudget: c.workBudget } : {}),
      ...(draftFeatures.length > 0 ? { draftFeatures } : {}),
    });
    const actual =
      result.kind === 'disposition'
        ? `disposition ${result.bytes} (work ${result.work})`
        : `error ${result.error.class}/${result.error.phase} ${result.error.code}: ${result.error.message} (work ${result.work})`;
    const passed = expectDisposition
      ? result.kind === 'disposition' && result.bytes === expectedBytes
      : result.kind === 'error' &&
        result.error.class === c.expectedErrorClass &&
        result.error.phase === c.expectedErrorPhase;
    return { suite, id: c.id, description: c.description, passed, expected, actual };
  });
}
