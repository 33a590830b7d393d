import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseScenarioText } from '../../../src/scenario/index';

const BASE = readFileSync(join(__dirname, '../../../scenarios/default.yaml'), 'utf8');

describe('parseScenarioText never throws (property)', () => {
  it('on line deletions, duplications and character edits of a valid scenario', () => {
    const lines = BASE.split('\n');
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            line: fc.nat(lines.length - 1),
            op: fc.constantFrom('drop', 'dup', 'edit'),
            at: fc.nat(80),
            ch: fc.constantFrom('-', ':', '{', ' ', 'x', '0', '#', '"', '['),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        (edits) => {
          const ls = [...lines];
          for (const e of edits) {
            const i = e.line % ls.length;
            if (e.op === 'drop') ls.splice(i, 1);
            else if (e.op === 'dup') ls.splice(i, 0, ls[i]);
            else ls[i] = ls[i].slice(0, e.at) + e.ch + ls[i].slice(e.at + 1);
          }
          const res = parseScenarioText(ls.join('\n'));
          if (!res.ok) {
            expect(res.problems.length).toBeGreaterThan(0);
            for (const p of res.problems) {
              expect(p.line).toBeGreaterThanOrEqual(1);
              expect(p.col).toBeGreaterThanOrEqual(1);
              expect(p.message.length).toBeGreaterThan(0);
              expect(p.message).not.toMatch(/^Invalid input$/);
            }
          }
        },
      ),
      { numRuns: 80 },
    );
  });
});
