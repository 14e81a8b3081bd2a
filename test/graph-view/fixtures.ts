/**
 * Graph run results for the view's tests: RFC 0022's worked example as `docket graph evaluate` printed it (kept in
 * procurement-triage.run.json; regenerate with the command in docs/console.md), and a hostile variant.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Feed {
  from: string;
  pointer?: string;
  requirement?: string;
  injected?: boolean;
  state?: string;
  output?: string;
}
export interface RunFixture {
  status: string;
  nodes: { node: string; instancePath: string; factFeeds: Feed[]; evidenceFeeds: Feed[]; [k: string]: unknown }[];
  subgraphs: { instancePath: string; factFeeds: Feed[]; evidenceFeeds: Feed[]; [k: string]: unknown }[];
  [k: string]: unknown;
}

export const RUN_FILE = join(import.meta.dirname, 'procurement-triage.run.json');

export function procurementRun(): RunFixture {
  return JSON.parse(readFileSync(RUN_FILE, 'utf8')) as RunFixture;
}

export const HOSTILE_ID = '<img src=x onerror=alert(1)>';
export const HOSTILE_TARGET = '"><script>alert(2)</script>';

/** The worked example with a leaf id, its pointer, its pack name and its handoff target replaced by markup. */
export function hostileRun(): RunFixture {
  const r = procurementRun();
  const leaf = r.nodes.find((n) => n.instancePath === 'procurement-approval')!;
  leaf.node = HOSTILE_ID;
  leaf.instancePath = HOSTILE_ID;
  leaf.pack = HOSTILE_TARGET;
  leaf.factFeeds[0]!.pointer = `/${HOSTILE_TARGET}`;
  const handoff = r.nodes.find((n) => n.handoffTarget !== undefined)!;
  handoff.handoffTarget = { kind: 'human-role', name: HOSTILE_TARGET };
  r.headline = { node: HOSTILE_ID, disposition: leaf.disposition };
  return r;
}
