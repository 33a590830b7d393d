/**
 * The fuzzing stays (#15.8): a short-budget run of `npm run fuzz`'s harness over every format, share
 * links and random arbitration scripts must end with no crash, no slow input and no bad message; and
 * the harness's judge does flag each kind of bad message (so this test can fail).
 */
import { describe, expect, it } from 'vitest';
import { formatReport, fuzz, judgeProblems, judgeTrace } from '../../../scripts/fuzz/harness';
import { readTraceText } from '../../../src/format/trace';
import { parseYaml } from '../../../src/format/yaml';

describe('fuzz (short budget)', () => {
  it('every target: no crash, no slow input, no bad message', async () => {
    const t0 = performance.now();
    const report = await fuzz({ seed: 20_251_123, budgetS: 4, slowMs: 10_000 });
    const text = formatReport(report, (performance.now() - t0) / 1000);
    for (const [target, c] of Object.entries(report.counts)) {
      expect(c.valid + c.refused, `${target}\n${text}`).toBeGreaterThan(0);
      expect(c.crash + c.slow + c['bad-message'], `${target}\n${text}`).toBe(0);
    }
    expect(Object.keys(report.counts)).toEqual([
      'policy',
      'scenario',
      'script',
      'blis',
      'trace',
      'share-link',
      'share-state',
      'random-script',
    ]);
  }, 120_000);

  it('trace files are judged as a format: a bad line is refused with its place, a problem without one is flagged', () => {
    expect(judgeTrace(readTraceText('t.jsonl', '{"timestamp": 1}', {}), '{"timestamp": 1}').outcome).toBe(
      'refused',
    );
    const unplaced = { ok: false as const, problems: [{ line: 7, message: 'x' }], more: 0 };
    expect(judgeTrace(unplaced, 'one line').outcome).toBe('bad-message');
    const engine = {
      ok: false as const,
      problems: [{ line: 1, message: 'TypeError: x is undefined' }],
      more: 0,
    };
    expect(judgeTrace(engine, 'one line').outcome).toBe('bad-message');
  });

  it('the judge flags unpositioned problems, engine messages and long echoes', () => {
    const ok = (message: string, line = 1, col = 1) => ({ ok: false, problems: [{ line, col, message }] });
    expect(judgeProblems(ok('fine'), 'a: 1').outcome).toBe('refused');
    expect(judgeProblems(ok('fine', 0, 1), 'a: 1').outcome).toBe('bad-message');
    expect(judgeProblems(ok('Maximum call stack size exceeded'), 'a: 1').outcome).toBe('bad-message');
    expect(judgeProblems(ok(`unknown class '${'Q'.repeat(101)}'`), 'a: 1').outcome).toBe('bad-message');
    expect(judgeProblems(ok(`unknown class '${'Q'.repeat(80)}…'`), 'a: 1').outcome).toBe('refused');
    expect(judgeProblems({ ok: false, problems: [] }, 'a: 1').outcome).toBe('bad-message');
  });

  it("regression: the YAML parser's own messages no longer echo a 30,000-character token", () => {
    const r = parseYaml(`a: 1\n  ${'M'.repeat(30_000)}\nb: 2`);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    for (const p of r.problems) expect(p.message.length).toBeLessThan(300);
  });
});
