/**
 * The core must not use engine-dependent floating-point functions (#15.6): `Math.log`, `Math.exp`,
 * `Math.pow`, trig and the rest are "implementation-approximated" in JavaScript and differ between
 * engines and versions; src/core/det-math.ts has deterministic ones. `**` is allowed only with an
 * integer literal exponent (exact for the small powers of two the core writes). `Math.sqrt` is
 * correctly rounded by IEEE-754 and stays.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const FORBIDDEN =
  /\bMath\s*\.\s*(log|log1p|log2|log10|exp|expm1|pow|sin|cos|tan|asin|acos|atan|atan2|sinh|cosh|tanh|asinh|acosh|atanh|cbrt|hypot)\b/;
/** `a ** b` where b is not an integer literal (possibly parenthesised or negated). */
const NON_INTEGER_POW = /\*\*(?!\s*(?:-?\s*\d+|\(\s*-?\s*\d+\s*\))(?![\w.]))/;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (/\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

/** The code of a line with comments and string literals blanked (good enough for this codebase's style). */
function codeLines(text: string): string[] {
  const noBlock = text.replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' '));
  return noBlock
    .split('\n')
    .map((l) =>
      l.replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, '""').replace(/\/\/.*$/, ''),
    );
}

function violations(text: string): string[] {
  const out: string[] = [];
  codeLines(text).forEach((line, i) => {
    if (FORBIDDEN.test(line) || NON_INTEGER_POW.test(line)) out.push(`${i + 1}: ${line.trim()}`);
  });
  return out;
}

describe('src/core uses deterministic math only', () => {
  it('finds no engine-dependent Math function or non-integer ** in src/core', () => {
    const found: string[] = [];
    for (const file of sourceFiles(join(__dirname, '../../../src/core'))) {
      for (const v of violations(readFileSync(file, 'utf8'))) found.push(`${file}:${v}`);
    }
    expect(found).toEqual([]);
  });

  it('finds none in the layers above that compute figures (imports, scenario estimates, sweep points)', () => {
    // A sweep's points and an imported scenario's lengths become simulation inputs: they must be
    // the same bits in every engine too (#15.6).
    const files = [
      ...sourceFiles(join(__dirname, '../../../src/import')),
      ...sourceFiles(join(__dirname, '../../../src/scenario')),
      join(__dirname, '../../../src/worker/sweep-runner.ts'),
    ];
    const found: string[] = [];
    for (const file of files) {
      for (const v of violations(readFileSync(file, 'utf8'))) found.push(`${file}:${v}`);
    }
    expect(found).toEqual([]);
  });

  it('the check itself catches what it should and passes what it should', () => {
    expect(violations('const a = Math.log(x);')).toHaveLength(1);
    expect(violations('const a = Math .exp(x);')).toHaveLength(1);
    expect(violations('const a = Math.pow(2, 3);')).toHaveLength(1);
    expect(violations('const a = Math.sin(t) + Math.cos(t);')).toHaveLength(1);
    expect(violations('const a = x ** 0.5;')).toHaveLength(1);
    expect(violations('const a = x ** (1 / k);')).toHaveLength(1);
    expect(violations('const a = x ** y;')).toHaveLength(1);
    expect(violations('const a = 2 ** 31;')).toEqual([]);
    expect(violations('const a = 2 ** -3;')).toEqual([]);
    expect(violations('const a = Math.sqrt(x) + Math.floor(y);')).toEqual([]);
    expect(violations('// Math.log in a comment\n/** x ** y */')).toEqual([]);
    expect(violations("const s = 'Math.exp';")).toEqual([]);
  });
});
