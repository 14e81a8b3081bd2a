/**
 * One evaluation request, end to end, over the ports (docs/pipeline.md): decode → retain the exact request bytes
 * and claim the request id (both sent before the decision, ADR 0402) → admission → evaluate under the budget →
 * append exactly once. What the entry owes the outside world (handoffs, the result notification, its position) is the
 * delivery stage's to send, from the recorded entry (core/pipeline/deliver-job.ts, docs/adr/0404-delivery-stage.md).
 *
 * Pure orchestration: every effect goes through a port, so the same code runs in Lambda, under the local poller
 * and in unit tests. It never throws for bad input: an identified bad request becomes an `admission-refusal` or
 * `evaluation-error` entry; an unidentified one is returned as `dead-letter` with its reason
 * (docs/adr/0071-unidentified-requests-go-to-the-dlq.md). It throws only for infrastructure faults (a store or
 * queue call failed), and then the whole step is safe to retry: every write is idempotent.
 */
import { evaluateCompiled } from '../evaluate/index.js';
import { normalizeDraftFeatures } from '../pack/index.js';
import type { EvaluationError } from '../evaluate/types.js';
import { sha256Hex } from '../ledger/primitives/bytes.js';
import type { EntryRefusal } from '../ledger/entries/entry-types.js';
import { capMessage } from '../ledger/entries/entry.js';
import type { AppendResult, EntryDraft, GraphReadFailure, LedgerWriter, PackSource, RequestArchive } from './ports.js';
import {
  admit,
  aliasUnreadableRefusal,
  decideGraph,
  packUnreadableRefusal,
  isGraphRequest,
  readIntakeRequest,
  type Admission,
  type AdmissionDeployment,
  type EvaluationRequest,
  type GraphRegistry,
  type GraphRequest,
  type IntakeRequest,
  type RequestError,
} from '../admission/index.js';
import type { Result } from '../result.js';

/**
 * The deployment the pipeline runs as: its logs, evaluator, budgets, and the extensions (§9) and draft features
 * (ADR 0190) it supports — properties of the deployment, never of a request, recorded in every entry (without draft
 * features an entry stays format /1, ADR 0220). The pack source must validate packs under the same draft features
 * (cachedPackSource's `draftFeatures`).
 */
export type PipelineConfig = AdmissionDeployment;

export interface PipelinePorts {
  readonly packs: PackSource;
  readonly archive: RequestArchive;
  readonly ledger: LedgerWriter;
  /**
   * The published graphs (ADR 0340), for graph requests (ADR 0360); absent, no graph is published (a deployment that
   * enables judgment-graphs wires it: functions/lib/evaluate-runtime.ts).
   */
  readonly graphs?: GraphRegistry<GraphReadFailure>;
}

const NO_GRAPHS: GraphRegistry<GraphReadFailure> = {
  resolveGraphAlias: () => Promise.resolve(null),
  loadGraph: () => Promise.resolve(null),
};

export type ProcessOutcome =
  | {
      readonly status: 'recorded';
      /** false when an earlier delivery already recorded this request. */
      readonly created: boolean;
      readonly requestId: string;
      readonly kind: EntryDraft['kind'];
      readonly logId: string;
      readonly seq: number;
      readonly entryHash: string;
      readonly packDigest: string | null;
      readonly work: number;
      readonly errorClass?: string;
      readonly refusalCode?: string;
    }
  | { readonly status: 'dead-letter'; readonly code: string; readonly message: string; readonly requestId?: string };

export async function processRequest(
  bytes: Uint8Array,
  config: PipelineConfig,
  ports: PipelinePorts,
): Promise<ProcessOutcome> {
  const requestDigest = sha256Hex(bytes);
  const read = readIntakeRequest(bytes);
  const requestId = read.ok ? read.value.requestId : read.error.requestId;
  if (requestId === undefined) {
    const e = read.ok ? undefined : read.error;
    return {
      status: 'dead-letter',
      code: e?.code ?? 'request-id-invalid',
      message: e?.message ?? 'no usable request id',
    };
  }
  // No lookup first: the append protocol itself returns the entry an earlier delivery recorded (and refuses an id
  // reused for other bytes), and evaluation is deterministic and cheap, so a redelivery costs no extra round trip.
  // Either way the batch names the recorded entry in a delivery job, so its handoffs are (re-)sent (ADR 0074).

  const draftFeatures = normalizeDraftFeatures(config.draftFeatures);
  const common = {
    requestId,
    requestDigest,
    correlation: read.ok ? (read.value.correlation ?? null) : null,
    supportedExtensions: [...new Set(config.supportedExtensions)].sort(),
    evaluator: config.evaluator,
    // Only when some are enabled, so an entry without draft features stays format /1, byte for byte (ADR 0220).
    ...(draftFeatures.length > 0 ? { draftFeatures } : {}),
  };
  // Retain the exact request bytes before the entry exists, so every recorded entry can be replayed
  // (docs/replay.md): the writer writes no slot before the archive put has succeeded (ADR 0350). A request over
  // the archive's limit is refused for exactly that reason (request-too-large) and is not retained. The put and the
  // claim start now, from the bytes alone, so their round trips overlap the decision below
  // (docs/adr/0402-claim-before-evaluation.md).
  const tooLarge = !read.ok && read.error.code === 'request-too-large';
  const retained = tooLarge ? undefined : ports.archive.put(bytes);
  retained?.catch(() => undefined); // awaited below; a decision that throws must not leave it unhandled
  const ticket = ports.ledger.reserve(requestId, requestDigest);
  try {
    const draft = await decide(read, common, config, ports);
    const [appended] = await Promise.all([
      ports.ledger.append(draft, { ...(retained !== undefined ? { retained } : {}), ticket }),
      retained,
    ]);
    return outcomeOf(appended, requestId);
  } finally {
    ticket.release();
  }
}

type Refused = Extract<Admission, { kind: 'refused' }>;
type Common = Pick<
  EntryDraft,
  'requestId' | 'requestDigest' | 'correlation' | 'supportedExtensions' | 'evaluator' | 'draftFeatures'
>;

/**
 * The entry draft for a request the reader could read far enough to identify: admission (core/admission `admit`,
 * the one decision replay re-runs), then evaluation of an admitted request under its budget.
 */
async function decide(
  read: Result<IntakeRequest, RequestError>,
  common: Common,
  config: PipelineConfig,
  ports: PipelinePorts,
): Promise<EntryDraft> {
  if (read.ok && isGraphRequest(read.value)) return decideGraphRun(read.value, common, config, ports);
  const a = await admit(read as Result<EvaluationRequest, RequestError>, config, ports.packs);
  switch (a.kind) {
    case 'refused':
      return refusal(common, a);
    // A registry item that its name reaches but the registry cannot serve will not heal by a retry: recorded at once,
    // so no poison pack or alias holds its log's FIFO group (ADR 0485). A store fault still throws.
    case 'pack-unreadable':
      return refusal(common, packUnreadableRefusal(a.digest));
    case 'alias-unreadable':
      return refusal(common, aliasUnreadableRefusal(a.alias));
    case 'pack-not-conformant': {
      const error: EvaluationError = {
        class: 'pack-not-conformant',
        phase: 'preflight',
        code: 'pack-not-conformant',
        message: a.message,
      };
      return {
        ...common,
        kind: 'evaluation-error',
        pack: a.pack,
        specVersion: a.specVersion,
        ...documentDigests(a.request),
        workBudget: a.workBudget,
        work: 0,
        error,
      };
    }
    case 'admitted':
      return evaluateAdmitted(a, common, config);
  }
}

/** A graph request (ADR 0360): `decideGraph`, the one decision replay re-runs, recorded as it decides. */
async function decideGraphRun(
  req: GraphRequest,
  common: Common,
  config: PipelineConfig,
  ports: PipelinePorts,
): Promise<EntryDraft> {
  const d = await decideGraph({ ok: true, value: req }, config, ports.graphs ?? NO_GRAPHS);
  switch (d.kind) {
    case 'refused':
      return refusal(common, d);
    case 'graph-unreadable':
      // A registry that holds the graph but cannot serve it will not heal by a retry: recorded at once, so no poison
      // holds its log's FIFO group (ADR 0456). A store fault still throws.
      return refusal(common, {
        code: 'graph-unreadable',
        message: `graph sha256:${d.digest} is published but cannot be read as a closed set: ${d.detail}`,
      });
    case 'alias-unreadable':
      // An alias item with no valid digest, as for a pack alias (ADR 0485).
      return refusal(common, aliasUnreadableRefusal(d.alias, 'graph'));
    case 'run':
      // decideGraph admits only a deployment enabling judgment-graphs, so common carries its draft features.
      return { ...common, draftFeatures: common.draftFeatures ?? [], kind: 'graph-run', ...d.entry };
  }
}

function documentDigests(req: EvaluationRequest): { factsDigest: string; evidenceDigest: string | null } {
  return { factsDigest: sha256Hex(req.facts), evidenceDigest: req.evidence ? sha256Hex(req.evidence) : null };
}

function evaluateAdmitted(
  a: Extract<Admission, { kind: 'admitted' }>,
  common: Common,
  config: PipelineConfig,
): EntryDraft {
  const { request: req, pack: p, workBudget } = a;
  const result = evaluateCompiled(p.compiled, {
    facts: req.facts,
    ...(req.evidence ? { evidence: req.evidence } : {}),
    supportedExtensions: new Set(config.supportedExtensions),
    workBudget,
  });
  const base = {
    ...common,
    pack: { id: p.id, version: p.version, digest: a.digest },
    specVersion: p.specVersion,
    ...documentDigests(req),
    workBudget,
    work: result.work,
  };
  if (result.kind === 'error')
    return {
      ...base,
      kind: 'evaluation-error',
      error: { ...result.error, message: capMessage(result.error.message) },
    };
  return {
    ...base,
    kind: 'disposition',
    disposition: result.disposition,
    dispositionDigest: sha256Hex(new TextEncoder().encode(result.bytes)),
  };
}

/** The `admission-refusal` draft of a refusal `admit` decided, its message capped as the entry format requires. */
function refusal(common: Common, a: Pick<Refused, 'code' | 'message'> & Partial<Refused>): EntryDraft {
  const r: EntryRefusal = { code: a.code, message: capMessage(a.message) };
  return {
    ...common,
    kind: 'admission-refusal',
    pack: a.pack ?? null,
    specVersion: a.specVersion ?? null,
    factsDigest: null,
    evidenceDigest: null,
    workBudget: null,
    work: 0,
    refusal: r,
  };
}

function outcomeOf(result: AppendResult, requestId: string): ProcessOutcome {
  if (result.status === 'conflict') {
    return {
      status: 'dead-letter',
      requestId,
      code: 'request-id-reused',
      message: `request id ${requestId} is already recorded for other request bytes (sha256:${result.existingRequestDigest}); use a new id`,
    };
  }
  const e = result.recorded.entry;
  return {
    status: 'recorded',
    created: result.status === 'appended',
    requestId,
    kind: e.kind,
    logId: result.recorded.logId,
    seq: result.recorded.seq,
    entryHash: result.recorded.entryHash,
    packDigest: e.pack?.digest ?? null,
    work: e.work,
    ...(e.kind === 'evaluation-error' ? { errorClass: e.error.class } : {}),
    ...(e.kind === 'admission-refusal' ? { refusalCode: e.refusal.code } : {}),
  };
}
