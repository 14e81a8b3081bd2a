/**
 * Diagnostics kept per code, so a hostile pack cannot make validation's output or memory grow with the square of
 * its size (docs/limits.md "Diagnostics"; ADR 0153): the first MAX_DIAGNOSTICS_PER_CODE of each code are kept, the
 * rest are counted and reported as one JPS-DIAGNOSTICS-OMITTED per code, e.g. "JPS-RULES-OVERLAP: 396,487 more".
 */
import { PackCodes } from './codes.js';
import type { Diagnostic } from './types.js';

export const MAX_DIAGNOSTICS_PER_CODE = 100;

export class DiagnosticCap {
  private readonly kept: Diagnostic[] = [];
  private readonly counts = new Map<string, { kept: number; omitted: number; severity: Diagnostic['severity'] }>();

  constructor(private readonly max: number = MAX_DIAGNOSTICS_PER_CODE) {}

  push(d: Diagnostic): void {
    this.offer(d.code, d.severity, () => d);
  }

  /**
   * A diagnostic of `code` and `severity`, built only if it is kept: past the cap it is only counted, so a pack with
   * n² findings costs n² counts, not n² built diagnostics (ADR 0201).
   */
  offer(code: string, severity: Diagnostic['severity'], build: () => Diagnostic): void {
    const c = this.counts.get(code) ?? { kept: 0, omitted: 0, severity };
    this.counts.set(code, c);
    if (severity === 'error') c.severity = 'error';
    if (c.kept < this.max) {
      c.kept++;
      this.kept.push(build());
    } else c.omitted++;
  }

  /** The kept diagnostics in the order they came, then one omission note per capped code, in first-seen order. */
  result(): Diagnostic[] {
    const notes: Diagnostic[] = [];
    for (const [code, c] of this.counts) {
      if (c.omitted === 0) continue;
      notes.push({
        code: PackCodes.DIAGNOSTICS_OMITTED,
        severity: c.severity,
        message: `${code}: ${groupDigits(c.omitted)} more`,
        omittedCode: code,
        omitted: c.omitted,
      });
    }
    return [...this.kept, ...notes];
  }
}

/** 396487 → "396,487": fixed grouping, independent of the host's locale data. */
const groupDigits = (n: number): string => String(n).replace(/\B(?=(\d{3})+$)/g, ',');
