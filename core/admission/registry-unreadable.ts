/**
 * The refusals of a request whose name reaches a registry item the registry cannot serve
 * (docs/adr/0485-a-poison-pack-is-a-recorded-refusal.md): a pack item that holds no bytes or bytes that do not hash
 * to its digest (`pack-unreadable`), an alias item that holds no valid digest (`alias-unreadable`). The publisher
 * only ever creates such items whole (ADR 0450), so either is a writer's doing and will not heal by a retry: the
 * pipeline records it at once, so no poison item holds its log's FIFO group.
 *
 * The message is a function of the name alone, never of the store's wording of the fault, so replay — which reads the
 * registry through its own fetchers — rebuilds it byte for byte (core/replay/refusal.ts).
 */
import { REFUSAL_STEP, type Refused } from './admit.js';

/** The refusal of a request whose pack digest names a registry item that cannot be served. */
export function packUnreadableRefusal(digest: string): Refused {
  return {
    kind: 'refused',
    step: REFUSAL_STEP['pack-unreadable'],
    code: 'pack-unreadable',
    message: `pack sha256:${digest} is in the registry but its item does not hold bytes that hash to the digest: it cannot be read`,
    pack: { digest },
    specVersion: null,
  };
}

/** The refusal of a request whose pack or graph alias names a registry item that holds no valid digest. */
export function aliasUnreadableRefusal(alias: string, of: 'pack' | 'graph' = 'pack'): Refused {
  return {
    kind: 'refused',
    step: REFUSAL_STEP['alias-unreadable'],
    code: 'alias-unreadable',
    message: `${of} alias ${alias} is in the registry but its item holds no valid digest: it cannot be read`,
    pack: null,
    specVersion: null,
  };
}
