/**
 * The intake queue carries two request formats (docs/pipeline.md; ADR 0360): evaluation requests
 * (docket.evaluation-request/1) and graph requests (docket.graph-request/1). One reader for both: the evaluation
 * reader first (the common case pays nothing more); only a message it refuses for its format is read as a graph
 * request. A message of neither format keeps the evaluation reader's refusal, naming both formats.
 *
 * A message the evaluation reader cannot read at all (`request-not-json`) may still be a graph request whose `inputs`
 * document is not a strict JSON text (a duplicate member, say): the evaluation reader cuts out only `facts` and
 * `evidence`, so it goes to the graph reader too, which cuts out `inputs` and hands the graph layer its raw bytes
 * (graph-semantics.md A10). A graph request with a readable id is then recorded, never dead-lettered (ADR 0362;
 * docs/adr/0459-the-intake-reader-hands-the-graph-reader-raw-inputs.md).
 */
import { err, type Result } from '../result.js';
import { GRAPH_REQUEST_FORMAT, readGraphRequest, type GraphRequest } from './graph-request.js';
import { REQUEST_FORMAT } from './request-format.js';
import { readRequest, type EvaluationRequest, type RequestError } from './request.js';

export type IntakeRequest = EvaluationRequest | GraphRequest;

export function readIntakeRequest(bytes: Uint8Array): Result<IntakeRequest, RequestError> {
  const read = readRequest(bytes);
  if (read.ok || (read.error.code !== 'request-format-unsupported' && read.error.code !== 'request-not-json'))
    return read;
  const graph = readGraphRequest(bytes);
  if (read.error.code === 'request-not-json')
    return graph.ok || (graph.error.code !== 'request-not-json' && graph.error.code !== 'request-format-unsupported')
      ? graph
      : read;
  if (graph.ok || graph.error.code !== 'request-format-unsupported') return graph;
  const message = `the request must carry "format": "${REQUEST_FORMAT}" or "${GRAPH_REQUEST_FORMAT}"`;
  return err({ ...read.error, message });
}
