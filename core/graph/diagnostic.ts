import type { DiagnosticCode } from './codes.js';

/**
 * One validation finding. `path` is an RFC 6901 pointer into the document; for a finding inside a subgraph
 * instance it is prefixed by the instance path and "#" (`/vendor-sanctions#/edges/0/from`, ADR 0311).
 */
export interface GraphDiagnostic {
  readonly code: DiagnosticCode;
  readonly path: string;
  readonly message: string;
}

export const prefixed = (instancePath: string, d: GraphDiagnostic): GraphDiagnostic =>
  instancePath === ''
    ? d
    : { ...d, path: d.path.includes('#') ? `${instancePath}${d.path}` : `${instancePath}#${d.path}` };
