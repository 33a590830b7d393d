/**
 * `npm run fuzz [-- --seed N] [--budget-s S] [--only target]`: fuzz every format, share links and
 * arbitration scripts (scripts/fuzz/harness.ts) for S seconds (default 60) and print the counts by
 * outcome; exits 1 if any input crashed, was too slow or got a bad message. Same seed, same inputs.
 */
import { formatReport, fuzz } from './fuzz/harness';

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  if (i >= 0) return process.argv[i + 1];
  return process.argv.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
}

const seed = Number(flag('--seed') ?? Date.now() % 1_000_000);
const budgetS = Number(flag('--budget-s') ?? 60);
const only = flag('--only');
const t0 = performance.now();
const report = await fuzz({ seed, budgetS, only });
console.log(formatReport(report, (performance.now() - t0) / 1000));
const failed = Object.values(report.counts).some((c) => c.crash + c.slow + c['bad-message'] > 0);
process.exitCode = failed ? 1 : 0;
