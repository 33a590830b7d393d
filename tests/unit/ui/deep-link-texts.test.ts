/**
 * A share link's scenario is read on the page's main thread before it loads (its policy for the
 * Policy tab, the dropped trace files it names). A 1,400-character link holding 1 MB of `[` froze the
 * tab for 4.5 s: the yaml package's parser takes seconds on deep flow nesting (then overflows its
 * stack, which was caught). A text nested deeper than the formats allow is refused by the load
 * anyway; these readers now see that from the lexer, which stops at the first level too deep (#15).
 */
import { describe, expect, it } from 'vitest';
import { flowTooDeep } from '../../../src/format/yaml';
import { outlineOf } from '../../../src/scenario/outline';
import { sweepParams } from '../../../src/scenario/sweep-params';
import { traceFilesOf } from '../../../src/ui/features/trace-file-store';

const DEEP = `version: 1\nname: deep\ntrace: ${'['.repeat(999_000)}`;
const DEEP_MAP = `version: 1\nname: deep\ntrace: ${'{a: '.repeat(249_000)}`;

function timed<T>(f: () => T): { value: T; ms: number } {
  const t0 = performance.now();
  const value = f();
  return { value, ms: performance.now() - t0 };
}

describe('deep flow nesting is seen before parsing', () => {
  it('the readers of a link’s scenario answer at once', () => {
    for (const text of [DEEP, DEEP_MAP]) {
      const outline = timed(() => outlineOf(text));
      expect(outline.value).toEqual({ kind: 'other', name: 'deep' });
      expect(outline.ms).toBeLessThan(300);
      const files = timed(() => traceFilesOf(text));
      expect(files.value).toEqual([]);
      expect(files.ms).toBeLessThan(300);
      const sweep = timed(() => sweepParams(text));
      expect(sweep.value).toEqual([]);
      expect(sweep.ms).toBeLessThan(300);
    }
  });

  it('counts flow brackets only: quoted, commented and block-scalar brackets are text', () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(flowTooDeep(`a: ${deep(64)}`)).toBe(false);
    expect(flowTooDeep(`a: ${deep(65)}`)).toBe(true);
    const text = [
      'version: 1',
      'name: brackets',
      `description: |\n  ${'['.repeat(100)}`,
      `note: '${'['.repeat(100)}'`,
      `# ${'{'.repeat(100)}`,
      `other: "${'['.repeat(100)}"`,
      'trace: { file: "a[[.csv", columns: { timestamp: t } }',
      '',
    ].join('\n');
    expect(flowTooDeep(text)).toBe(false);
    expect(traceFilesOf(text)).toEqual(['a[[.csv']);
    expect(outlineOf(text)).toMatchObject({ kind: 'scenario', name: 'brackets' });
  });
});
