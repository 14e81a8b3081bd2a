/**
 * Every AWS call Docket makes goes through the SDK clients' command path (ADR 0285): no production folder imports an
 * @smithy module (the SDK's internals) or builds an AWS JSON wire target by hand, which is what a path around the
 * command middleware needs.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const PRODUCTION = ['adapters', 'core', 'functions', 'stack', 'cli', 'infra', 'localstack'];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|js|mjs|cjs)$/.test(name) ? [path] : [];
  });
}

/** Findings in one source text: an @smithy import, or a hand-built `X-Amz-Target` of an AWS JSON service. */
function offences(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(?:from\s*|import\s*\(\s*|require\s*\(\s*)['"](@smithy\/[^'"]+)['"]/g))
    found.push(`imports ${m[1]}`);
  for (const m of text.matchAll(/['"`](DynamoDB_20120810|AmazonSQS|AmazonSNS)\.\w+['"`]/g))
    found.push(`builds the wire target ${m[0]}`);
  return found;
}

describe('the SDK command path', () => {
  it('is the only way production code reaches AWS: no @smithy import, no hand-built wire target', () => {
    const findings = PRODUCTION.flatMap((dir) =>
      sources(join(root, dir)).flatMap((file) =>
        offences(readFileSync(file, 'utf8')).map((o) => `${relative(root, file)} ${o}`),
      ),
    );
    expect(findings).toEqual([]);
  });

  it('sees a planted @smithy import and a hand-built target (the scan can fail)', () => {
    expect(offences(`import { SignatureV4 } from '@smithy/signature-v4';`)).toEqual(['imports @smithy/signature-v4']);
    expect(offences(`headers['x-amz-target'] = 'DynamoDB_20120810.PutItem';`)).toHaveLength(1);
  });
});
