/**
 * `npm run bench`: every benchmark in turn, each in its own process so one's heap and JIT state cannot colour the
 * next. Each prints its own figures beside a same-run baseline and the command that reproduces it alone.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT } from '../core/exit-codes.js';

const BENCHES = [
  'carrier',
  'evaluate',
  'batch',
  'quantifiers',
  'pack-size',
  'verify',
  'offline-verify',
  'checkpoint',
  'witness',
  'receipt',
  'result-proof',
  'draft-entry',
  'graph-pipeline',
  'handoff-consumer',
  'handler',
  'bundle',
  'cli-start',
  'console',
  'graph',
  'graph-view',
];

const here = dirname(fileURLToPath(import.meta.url));
let failed = 0;
for (const name of BENCHES) {
  process.stdout.write(`\n===== ${name} =====\n`);
  const r = spawnSync(process.execPath, ['--expose-gc', join(here, `${name}.bench.js`)], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed += 1;
    process.stdout.write(`${name} bench exited ${r.status ?? r.signal}\n`);
  }
}
process.exitCode = failed === 0 ? EXIT.OK : EXIT.FAILED;
