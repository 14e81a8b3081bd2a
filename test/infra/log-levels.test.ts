/**
 * What Lambda itself writes to each function's log group (docs/adr/0502-log-volume-measured-and-cut.md): JSON logs,
 * Lambda's own lines at WARN (no start or report line per invocation), the functions' own lines unfiltered.
 */
import { describe, expect, it } from 'vitest';
import { resourcesOfType, template } from './template.js';

describe("each function's log configuration", () => {
  it('keeps Lambda’s system lines at WARN and every line of the function’s own, as the scale model prices them', () => {
    const fns = resourcesOfType(template(), 'AWS::Lambda::Function').map(([, r]) => r.Properties);
    const docket = fns.filter((p) => String(p.FunctionName ?? '').startsWith('docket-'));
    expect(docket.map((p) => p.FunctionName).sort()).toEqual(
      ['docket-dev-checkpoint', 'docket-dev-deliver', 'docket-dev-evaluate', 'docket-dev-sequence'].sort(),
    );
    for (const p of docket) {
      expect(p.LoggingConfig, p.FunctionName).toMatchObject({ LogFormat: 'JSON', SystemLogLevel: 'WARN' });
      // No application level: the runtime's default INFO, so the functions' INFO lines (docs/pipeline.md) are kept.
      expect(p.LoggingConfig.ApplicationLogLevel, p.FunctionName).toBeUndefined();
    }
  });
});
