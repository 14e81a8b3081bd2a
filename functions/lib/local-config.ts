/**
 * The configuration of the `local` stage (`npm start`): infra's defaults, with one route queue per target that the
 * example packs name (examples/), so the demo shows every handoff shape landing on a real route queue. Route
 * targets are mapped by configuration, never by code (issue 4 item 4); a target missing here goes to `unrouted`.
 */
import type { DocketConfig } from '../../infra/config.js';

export const LOCAL_CONFIG: Partial<DocketConfig> = {
  stage: 'local',
  logCount: 4,
  routes: [
    { kind: 'queue', name: 'Intake Desk', queue: 'intake-desk' },
    { kind: 'human-role', name: 'Oversight', queue: 'oversight' },
    { kind: 'human-role', name: 'Data Steward', queue: 'data-steward' },
    { kind: 'queue', name: 'Vendor Risk', queue: 'vendor-risk' },
    { kind: 'human-role', name: 'Finance Controller', queue: 'finance' },
    { kind: 'human-role', name: 'Incident Commander', queue: 'incident' },
    ...Array.from({ length: 9 }, (_, i) => ({ kind: 'queue' as const, name: `Region 0${i + 1}`, queue: 'regions' })),
    { kind: 'human-role', name: 'Line Manager', queue: 'hr' },
    { kind: 'system', name: 'HR Data Quality', queue: 'hr' },
  ],
};
