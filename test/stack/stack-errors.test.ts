/**
 * How the CLI explains a stage's errors (stack/clients.ts): a table or queue the stage lacks is one rule, shared by
 * the explanation and by the archive cross-check that reports "nothing to cross-check" (stack/request-omissions.ts).
 */
import { describe, expect, it } from 'vitest';
import { explainStackError, isMissingResource } from '../../stack/clients.js';
import { resolveSettings } from '../../stack/settings.js';

const settings = resolveSettings({ stage: 'qa' }, {});
const named = (name: string, message = `${name} happened`) => Object.assign(new Error(message), { name });

describe('a stage error explained', () => {
  it('treats exactly a missing table or queue as a missing resource', () => {
    for (const name of ['ResourceNotFoundException', 'QueueDoesNotExist', 'AWS.SimpleQueueService.NonExistentQueue'])
      expect(isMissingResource(named(name))).toBe(true);
    for (const e of [named('AccessDeniedException'), new Error('boom'), null, undefined, 'text'])
      expect(isMissingResource(e)).toBe(false);
  });

  it('names the stage and the flags to check for a missing resource, and passes anything else through', () => {
    expect(explainStackError(named('QueueDoesNotExist', 'no such queue'), settings)).toBe(
      'no such queue (stage qa; check --stage, --table, --queue)',
    );
    expect(explainStackError(named('AccessDeniedException', 'denied'), settings)).toBe('AccessDeniedException: denied');
  });

  it('tells a refused connection to start the local stack', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4566'), { code: 'ECONNREFUSED' });
    expect(explainStackError(refused, settings)).toMatch(
      /^cannot reach http:\/\/127\.0\.0\.1:4566: is the local stack/,
    );
  });
});
