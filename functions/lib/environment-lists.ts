/** Environment values the functions share (infra/function-environment.ts names them). */
import { DRAFT_FEATURES, isDraftFeature, type DraftFeature } from '../../core/pack/index.js';

/** A setting the function cannot run without: its cold start fails, naming it. */
export function requiredEnv(env: NodeJS.ProcessEnv, name: string): string {
  const v = env[name];
  if (!v) throw new TypeError(`${name} is required`);
  return v;
}

/** A JSON array of strings; absent or empty text is the empty list. */
export function jsonArray(text: string | undefined, name: string): string[] {
  if (text === undefined || text === '') return [];
  const v = JSON.parse(text) as unknown;
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string'))
    throw new TypeError(`${name} must be a JSON array of strings`);
  return v;
}

/**
 * DRAFT_FEATURES (infra/function-environment.ts): the deployment's enabled draft features, each a known name (the
 * closed list of core/pack); absent = none. An unknown name fails the cold start rather than being ignored: the
 * entries would otherwise record a grammar the evaluator does not run (ADR 0221).
 */
export function draftFeaturesFromEnv(text: string | undefined): DraftFeature[] {
  const names = jsonArray(text, 'DRAFT_FEATURES');
  for (const n of names)
    if (!isDraftFeature(n))
      throw new TypeError(
        `DRAFT_FEATURES names unknown feature ${JSON.stringify(n)} (known: ${DRAFT_FEATURES.join(', ')})`,
      );
  return [...new Set(names as DraftFeature[])].sort();
}
