import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  changesNothing,
  choiceOf,
  describeB,
  LABEL_MAX_CHARS,
  labelOfB,
  resolveRunB,
  runLabel,
  runParts,
  settingsOf,
  splitLabelCount,
} from '../../../src/ui/compare/settings';

const DEFAULT = readFileSync('scenarios/default.yaml', 'utf8');
const BURST = readFileSync('scenarios/drr-burst.yaml', 'utf8');

describe('compare settings', () => {
  it('turn the dialog choice into overrides and back', () => {
    const choice = {
      scheduler: 'lpm',
      routing: 'round-robin',
      extra: 'scheduler.quantum=5000\n\n# a note\n  cluster.workers=4 ',
      copy: null,
      label: '  LPM ',
    };
    const s = settingsOf(choice);
    expect(s).toEqual({
      sets: [
        'scheduler.policy=lpm',
        'router.routing=round-robin',
        'scheduler.quantum=5000',
        'cluster.workers=4',
      ],
      label: 'LPM',
    });
    expect(choiceOf(s)).toEqual({
      scheduler: 'lpm',
      routing: 'round-robin',
      extra: 'scheduler.quantum=5000\ncluster.workers=4',
      copy: null,
      label: 'LPM',
    });
    expect(settingsOf({ scheduler: 'lpm', routing: '', extra: '', copy: 'version: 1\n', label: '' })).toEqual(
      {
        scenario: 'version: 1\n',
      },
    );
    expect(choiceOf(null)).toEqual({ scheduler: '', routing: '', extra: '', copy: null, label: '' });
  });

  it("resolve B from A's texts: overrides applied, A's policy override kept unless B has its own", () => {
    const r = resolveRunB({ scenario: DEFAULT, policy: 'p: 1\n' }, { sets: ['scheduler.policy=lpm'] });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.policy).toBe('p: 1\n');
    expect(runParts(r.scenario)).toEqual({ scheduler: 'lpm', routing: 'kv-aware' });
    // Everything else is untouched (same seed, same workload).
    expect(r.scenario.replace('policy: lpm', 'policy: dlpm')).toBe(DEFAULT);
    expect(resolveRunB({ scenario: DEFAULT }, { scenario: 'x: 1\n', policy: 'q: 2\n' })).toEqual({
      ok: true,
      scenario: 'x: 1\n',
      policy: 'q: 2\n',
    });
    expect(resolveRunB({ scenario: DEFAULT }, {})).toEqual({ ok: true, scenario: DEFAULT });
    const bad = resolveRunB({ scenario: DEFAULT }, { sets: ['clients.nobody.arrival.rate=1'] });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.message).toContain("no entry named 'nobody'");
    // on the page an assignment is an "override", not the CLI's "--set", and there is no file line
    const loose = resolveRunB({ scenario: DEFAULT }, { sets: ['scheduler.quantum'] });
    expect(loose).toEqual({ ok: false, message: 'override scheduler.quantum: expected key.path=value' });
  });

  it('label runs by scheduler and routing, B by what differs', () => {
    expect(runLabel(DEFAULT)).toBe('dlpm · kv-aware');
    expect(runLabel('version: 1\nname: t\n')).toBe('fcfs · round-robin');
    expect(runLabel(BURST)).toBe(/^name:\s*(.+)$/m.exec(BURST)?.[1]?.trim());
    expect(runLabel('a: [')).toBe('DRR sandbox');
    const a = runLabel(DEFAULT);
    expect(labelOfB(a, DEFAULT.replace('policy: dlpm', 'policy: vtc'), {})).toBe('vtc · kv-aware');
    expect(labelOfB(a, DEFAULT, { sets: ['scheduler.quantum=9000'] })).toBe('scheduler.quantum=9000');
    expect(labelOfB(a, DEFAULT, { scenario: DEFAULT })).toBe('edited copy');
    expect(labelOfB(a, DEFAULT, { label: 'mine' })).toBe('mine');
  });

  it('B’s label hides no override: the ones its scheduler · routing does not show follow it, the rest counted', () => {
    const a = runLabel(DEFAULT);
    const fcfs = DEFAULT.replace('policy: dlpm', 'policy: fcfs');
    // the case reported: "fcfs · kv-aware" said nothing of the one worker
    const one = describeB(a, fcfs, { sets: ['scheduler.policy=fcfs', 'cluster.workers=1'] });
    expect(one).toEqual({
      label: 'fcfs · kv-aware + cluster.workers=1',
      title: 'Run B overrides:\nscheduler.policy=fcfs\ncluster.workers=1',
    });
    const many = describeB(a, fcfs, {
      sets: [
        'scheduler.policy=fcfs',
        'cluster.workers=1',
        'duration_s=120',
        'clients.alice.arrival.rate=2',
        'clients.mallory.arrival.rate=9',
      ],
    });
    expect(many.label.length).toBeLessThanOrEqual(LABEL_MAX_CHARS);
    expect(many.label).toMatch(/^fcfs · kv-aware \+ cluster\.workers=1(, [^,]+)* \+\d more$/);
    const shown = many.label
      .split(' + ')[1]
      .replace(/ \+\d more$/, '')
      .split(', ').length;
    expect(Number(/\+(\d) more$/.exec(many.label)?.[1])).toBe(4 - shown);
    expect(many.title?.split('\n')).toHaveLength(6);
    // one override longer than the label's room is cut, the tooltip has it whole
    const long = `clients.alice.program.turns=${'9'.repeat(60)}`;
    const cut = describeB(a, DEFAULT, { sets: [long] });
    expect(cut.label.endsWith('…')).toBe(true);
    expect(cut.title).toContain(long);
    // the viewer's own label stays, with a count of what it may not say
    expect(
      describeB(a, fcfs, { label: 'one GPU', sets: ['scheduler.policy=fcfs', 'cluster.workers=1'] }).label,
    ).toBe('one GPU +2 overrides');
    expect(describeB(a, DEFAULT, { sets: [] })).toEqual({ label: 'same as A', title: null });
  });
});

describe('changesNothing', () => {
  const blank = { scheduler: '', routing: '', extra: '', copy: null, label: '' };
  it('is true until B differs from A: same picks, comment-only overrides, an unedited copy', () => {
    const a = readFileSync('scenarios/default.yaml', 'utf8');
    expect(changesNothing(blank, a)).toBe(true);
    expect(changesNothing({ ...blank, scheduler: 'dlpm', extra: '# nothing yet\n' }, a)).toBe(true);
    expect(changesNothing({ ...blank, copy: `${a}\n` }, a)).toBe(true);
    expect(changesNothing({ ...blank, scheduler: 'lpm' }, a)).toBe(false);
    expect(changesNothing({ ...blank, extra: 'seed=2' }, a)).toBe(false);
    expect(changesNothing({ ...blank, copy: a.replace('seed:', 'seed: 9 #') }, a)).toBe(false);
  });
});

describe('splitLabelCount', () => {
  it('splits the trailing count off a label so the page keeps it on one line', () => {
    expect(splitLabelCount('fcfs · kv-aware + cluster.workers=1, seed=7 +2 more')).toEqual({
      text: 'fcfs · kv-aware + cluster.workers=1, seed=7',
      count: '+2 more',
    });
    expect(splitLabelCount('one GPU +1 override')).toEqual({ text: 'one GPU', count: '+1 override' });
    expect(splitLabelCount('one GPU +12 overrides')).toEqual({ text: 'one GPU', count: '+12 overrides' });
    // a count inside the label, or no count, is left alone
    expect(splitLabelCount('fcfs · kv-aware + seed=2 more')).toEqual({
      text: 'fcfs · kv-aware + seed=2 more',
      count: null,
    });
    expect(splitLabelCount('same as A')).toEqual({ text: 'same as A', count: null });
  });
});
