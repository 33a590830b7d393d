/**
 * `npm run fuzz [-- --seed N] [--budget-s S] [--only target]`: fuzz every format, share links and
 * arbitration scripts (scripts/fuzz/harness.ts) for S seconds (default 60) and print the counts by
 * outcome; exits 1 if any input crashed, was too slow or got a bad message. Same seed, same inputs.
 * `--help` prints the usage (scripts/fuzz/args.ts); an unknown option or a bad value exits 2.
 */
import { parseFuzzArgs } from './fuzz/args';
import { formatReport, fuzz, targets } from './fuzz/harness';

const parsed = parseFuzzArgs(
  process.argv.slice(2),
  targets().map((t) => t.name),
  Date.now(),
);
if (parsed.kind === 'help') console.log(parsed.text);
else if (parsed.kind === 'error') {
  console.error(parsed.text);
  process.exitCode = 2;
} else {
  const t0 = performance.now();
  const report = await fuzz(parsed.args);
  console.log(formatReport(report, (performance.now() - t0) / 1000));
  const failed = Object.values(report.counts).some((c) => c.crash + c.slow + c['bad-message'] > 0);
  process.exitCode = failed ? 1 : 0;
}
