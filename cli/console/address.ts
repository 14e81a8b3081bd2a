/**
 * Where `docket console` listens unless told otherwise, and the address of an entry's page there: what `docket show`
 * and the main job print as a graph run's console link (docs/console.md). Kept apart from the server so a command
 * that only prints the link does not load it (ADR 0332).
 */
export const DEFAULT_PORT = 4600;
export const DEFAULT_HOST = '127.0.0.1';

/** The entry page of `requestId` on a console started with the defaults (`/entry/<request-id>`). */
export function consoleEntryUrl(requestId: string): string {
  return `http://${DEFAULT_HOST}:${DEFAULT_PORT}/entry/${encodeURIComponent(requestId)}`;
}
