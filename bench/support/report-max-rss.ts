/**
 * Preloaded into a child process by a bench (`node --import …/report-max-rss.js …`): on exit it writes the
 * process's peak resident set size (getrusage ru_maxrss, KiB) to stderr as one line `maxRSS <KiB>`, so a bench
 * can report the memory high-water mark of a whole command without a platform tool.
 */
import { writeSync } from 'node:fs';

process.on('exit', () => {
  writeSync(2, `\nmaxRSS ${process.resourceUsage().maxRSS}\n`);
});
