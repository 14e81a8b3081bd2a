// A requester built with @docket/client: submits one request and a batch, then waits for their verified results;
// refused notifications are collected, never yielded. Prints JSON. With "receiptOf": prints that request's receipt.
import { readFileSync } from 'node:fs';
import { docketClient, DocketClientError } from '@docket/client';

const c = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const docket = docketClient({
  endpoint: c.endpoint,
  region: c.region,
  intakeQueueUrl: c.intakeQueueUrl,
  resultsTopicArn: c.resultsTopicArn,
  ledgerTable: c.ledgerTable,
  policy: readFileSync(c.policyPath),
});
const out = {};
if (c.receiptOf !== undefined) {
  const r = await docket.receipt(c.receiptOf);
  out.receipt = r.ok ? { ok: true, verdict: r.verdict, leafIndex: r.receipt.inclusion.leafIndex } : r;
} else {
  const facts = { vendor: { riskScore: '12.5', sanctioned: false } };
  const one = await docket.submit({
    requestId: 'pkg-c1',
    pack: c.pack,
    facts,
    evidence: { 'tax-certificate': 'present' },
  });
  const many = await docket.submitMany([
    { requestId: 'pkg-c2', pack: c.pack, facts },
    {
      requestId: 'pkg-c3',
      pack: c.pack,
      facts: new TextEncoder().encode('{"vendor":{"riskScore":"99","sanctioned":true}}'),
    },
  ]);
  out.submitted = [one.requestId, ...many.sent];
  out.failed = many.failed;
  out.results = [];
  out.refused = [];
  for await (const r of docket.results(out.submitted, {
    timeout: 90,
    onRefused: (x) => out.refused.push({ reason: x.reason, detail: x.detail }),
  }))
    out.results.push({ requestId: r.requestId, kind: r.entry.kind, logId: r.entry.logId, seq: r.entry.seq });
  // Recorded before this second wait listened (its notification was taken by the first): read from the ledger.
  out.again = [];
  for await (const r of docket.results(['pkg-c1'], { timeout: 10 })) out.again.push(r.requestId);
  try {
    for await (const _ of docket.results(['never-sent'])) void _;
  } catch (e) {
    out.unknown = e instanceof DocketClientError ? e.code : String(e);
  }
}
docket.close();
process.stdout.write(JSON.stringify(out));
