/**
 * YAML nested deeper than 64 levels is refused at its position (#15), and now without parsing all of
 * a large text first: 1 MB of `[` took the yaml package's parser 2.4 s and 950 MB in the CLI (5 s in a
 * test worker) before the depth check. The refusal is the same, at the same position, as for a
 * small text that is the same up to the nesting.
 */
import { describe, expect, it } from 'vitest';
import { parseYaml } from '../../../src/format/yaml';

function problems(text: string) {
  const r = parseYaml(text);
  return r.ok ? [] : r.problems.map((p) => `${p.line}:${p.col}: ${p.message}`);
}

describe('deep flow nesting in a large text', () => {
  it('is refused at once', () => {
    const t0 = performance.now();
    expect(problems(`version: 1\ntrace: ${'['.repeat(999_000)}`)).toEqual([
      '2:71: nesting deeper than 64 levels',
    ]);
    expect(problems(`version: 1\ntrace: ${'{a: '.repeat(249_000)}`)).toEqual([
      '2:260: nesting deeper than 64 levels',
    ]);
    expect(performance.now() - t0).toBeLessThan(1500);
  });

  it('at the position a small text with the same start gets', () => {
    const starts = [
      'version: 1\ntrace: ',
      'a:\n  b:\n    - c:\n        - d: ',
      'a: \'[[[[\'\n# {{{{{{\nb: |\n  [[[[[[\nc: "{["\nd: ',
      'a: [1, [2, {b: ',
      '\ufeffversion: 1\ntrace: ',
      '---\na: 1\n...\n---\nb: ',
      'a: "multi\n  line [[[["\nb: !tag ',
      '- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - ',
      '- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - ',
    ];
    for (const start of starts)
      for (const open of ['[', '{a: ']) {
        const nest = open.repeat(70);
        const close = (open === '[' ? ']' : '}').repeat(70);
        const small = problems(`${start}${nest}${close}\n`);
        expect(small).toHaveLength(1);
        expect(problems(`${start}${nest} ${'x, '.repeat(40_000)}${close}\n`)).toEqual(small);
      }
  });
});
