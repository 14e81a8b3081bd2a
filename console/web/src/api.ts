/** Reads the console's JSON API (same origin only: the Content-Security-Policy allows no other). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`the console server answered ${status}`);
  }
}

export async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(path, { headers: { Accept: 'application/json' } });
  const body: unknown = await res.json();
  if (!res.ok) throw new ApiError(res.status, body);
  return body as T;
}

/** The only way the page builds a link to an entry: an internal path, the request id percent-encoded. */
export const entryHref = (requestId: string): string => `/entry/${encodeURIComponent(requestId)}`;

export const entriesHref = (query: Record<string, string>): string => {
  const q = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== ''));
  const s = q.toString();
  return s ? `/entries?${s}` : '/entries';
};
