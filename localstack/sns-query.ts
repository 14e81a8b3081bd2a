/**
 * One SNS call in the query protocol (form-encoded POST, XML answer), which is what SNS speaks on the wire: enough
 * for provisioning topics and subscriptions without a second SDK client package. Local endpoints only (unsigned).
 */
export class SnsCallError extends Error {
  readonly code = 'sns-call-failed';
}

/** Posts `params` to the endpoint and returns the text of the answer's first `<field>` element (or undefined). */
export async function snsCall(
  endpoint: string,
  region: string,
  params: Record<string, string>,
  field?: string,
): Promise<string | undefined> {
  const body = new URLSearchParams({ ...params, Version: '2010-03-31' }).toString();
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
      // The region is read from the credential scope, as the SDK's signature would carry it.
      authorization: `AWS4-HMAC-SHA256 Credential=test/20260101/${region}/sns/aws4_request, SignedHeaders=host, Signature=0`,
    },
    body,
  });
  const text = await res.text();
  if (!res.ok) throw new SnsCallError(`SNS ${params.Action} failed (${res.status}): ${text.slice(0, 300)}`);
  if (!field) return undefined;
  return new RegExp(`<${field}>([^<]*)</${field}>`).exec(text)?.[1];
}
