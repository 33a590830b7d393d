/**
 * The Difference table where one run's Jain's index says nothing yet: its cell is a short "n/a"
 * whose reason is a tooltip, which touch and keyboard users never see, so the reason is also given
 * in words under the table; not when both or neither are n/a (the row then says it, or there is
 * nothing to say).
 */
import { readFileSync } from 'node:fs';
import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { JAIN_NA } from '../../../src/core/metrics/jain';
import type { DiffRow } from '../../../src/ui/compare/diff';
import { DiffTable } from '../../../src/ui/compare/DifferencePanel';

const jain = (naA: boolean, naB: boolean): DiffRow => ({
  key: 'jain',
  label: "Jain's index",
  unit: '',
  client: null,
  a: naA ? null : 0.91,
  b: naB ? null : 0.82,
  delta: naA || naB ? null : -0.09,
  naA,
  naB,
});
const service: DiffRow = {
  key: 'service:ann',
  label: 'ann service',
  unit: 'units',
  client: 'ann',
  a: 100,
  b: 120,
  delta: 20,
};
const html = (rows: DiffRow[]) => renderToStaticMarkup(h(DiffTable, { rows }));

describe('DiffTable', () => {
  test('one side n/a: the cell says n/a and the reason is in words under the table', () => {
    const out = html([service, jain(false, true)]);
    expect(out).toContain('>n/a<');
    expect(out).toContain('data-testid="diff-na-note"');
    expect(out).toContain(`${JAIN_NA}.`);
  });
  test('both sides n/a: the row spans the reason once, no note under the table', () => {
    const out = html([service, jain(true, true)]);
    expect(out).toContain('class="na-span" colSpan="3"');
    expect(out).not.toContain('diff-na-note');
  });
  test('neither side n/a: numbers, no note', () => {
    const out = html([service, jain(false, false)]);
    expect(out).not.toContain('n/a');
    expect(out).not.toContain('diff-na-note');
  });
});

describe('DiffTable row notes', () => {
  test('a note is one unbreakable piece: "(as run --json)" wrapped after "--" (tryout L2)', () => {
    const out = html([{ ...jain(false, false), note: 'as run --json' }]);
    expect(out).toContain('<span class="unit diff-note">(as run --json)</span>');
    const css = readFileSync('src/ui/compare/compare.css', 'utf8');
    expect(css).toMatch(/\.diff-table \.diff-note \{\s*white-space: nowrap;/);
  });
});
