/**
 * Compare mode's settings: how run B differs from run A, and the texts B runs. B is A's scenario
 * with `key.path=value` overrides (a scheduler or routing picked from a list is one such line), or a
 * full copy of the scenario the viewer edited. Pure: no DOM, so unit tests call it directly.
 */
import { applyOverrides, outlineOf } from '../../scenario';
import type { SharedCompare } from '../share/codec';

/** The same shape a share link carries, less where run B is (its playhead, runner.ts). */
export type CompareSettings = Omit<SharedCompare, 'playhead'>;

export const SCHEDULER_KEY = 'scheduler.policy';
export const ROUTING_KEY = 'router.routing';

/** What the dialog edits: a scheduler and a routing ('' = as in A), more override lines, a label. */
export interface CompareChoice {
  scheduler: string;
  routing: string;
  /** Further `key.path=value` lines, one per line. */
  extra: string;
  /** A full edited copy of the scenario (used instead of the overrides when not null). */
  copy: string | null;
  label: string;
}

function lines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

/** The settings a dialog choice stands for. */
export function settingsOf(choice: CompareChoice): CompareSettings {
  const out: CompareSettings = {};
  if (choice.copy !== null) out.scenario = choice.copy;
  else {
    const sets: string[] = [];
    if (choice.scheduler) sets.push(`${SCHEDULER_KEY}=${choice.scheduler}`);
    if (choice.routing) sets.push(`${ROUTING_KEY}=${choice.routing}`);
    sets.push(...lines(choice.extra));
    out.sets = sets;
  }
  const label = choice.label.trim();
  if (label) out.label = label;
  return out;
}

/** Whether the dialog's choice would make B an exact copy of A (nothing to compare yet). */
export function changesNothing(choice: CompareChoice, aText: string): boolean {
  if (choice.copy !== null) return choice.copy.trim() === aText.trim();
  const a = runParts(aText);
  const same = (picked: string, current: string | undefined) => picked === '' || picked === current;
  return (
    same(choice.scheduler, a?.scheduler) &&
    same(choice.routing, a?.routing) &&
    lines(choice.extra).length === 0
  );
}

/** The dialog's fields for existing settings (the inverse of `settingsOf` for what it produces). */
export function choiceOf(settings: CompareSettings | null): CompareChoice {
  const choice: CompareChoice = {
    scheduler: '',
    routing: '',
    extra: '',
    copy: settings?.scenario ?? null,
    label: settings?.label ?? '',
  };
  const rest: string[] = [];
  for (const set of settings?.sets ?? []) {
    const eq = set.indexOf('=');
    const key = eq > 0 ? set.slice(0, eq).trim() : '';
    const value = eq > 0 ? set.slice(eq + 1).trim() : '';
    if (key === SCHEDULER_KEY && !choice.scheduler) choice.scheduler = value;
    else if (key === ROUTING_KEY && !choice.routing) choice.routing = value;
    else rest.push(set);
  }
  choice.extra = rest.join('\n');
  return choice;
}

export type Resolved = { ok: true; scenario: string; policy?: string } | { ok: false; message: string };

/** B's texts from A's and the settings: the edited copy, or A's scenario with the overrides applied. */
export function resolveRunB(a: { scenario: string; policy?: string }, settings: CompareSettings): Resolved {
  const policy = settings.policy ?? a.policy;
  const withPolicy = (scenario: string): Resolved =>
    policy !== undefined ? { ok: true, scenario, policy } : { ok: true, scenario };
  if (settings.scenario !== undefined) return withPolicy(settings.scenario);
  const sets = settings.sets ?? [];
  if (sets.length === 0) return withPolicy(a.scenario);
  // each message names its override ("override bogus: expected key.path=value"): no file to point at
  const res = applyOverrides(a.scenario, sets, 'override');
  if (!res.ok) return { ok: false, message: res.problems.map((p) => p.message).join('\n') };
  return withPolicy(res.value);
}

/** A cluster scenario's scheduler and routing (with the schema's defaults); null for anything else. */
export function runParts(scenarioText: string): { scheduler: string; routing: string } | null {
  const outline = outlineOf(scenarioText);
  return outline.kind === 'scenario' ? { scheduler: outline.scheduler, routing: outline.routing } : null;
}

/** A short name for a run: its scheduler and routing (`dlpm · kv-aware`), or the sandbox script's name. */
export function runLabel(scenarioText: string): string {
  const outline = outlineOf(scenarioText);
  if (outline.kind === 'scenario') return `${outline.scheduler} · ${outline.routing}`;
  return outline.name ?? 'DRR sandbox';
}

/** A label's overrides beyond this many characters are counted ("+2 more"), not spelled out. */
export const LABEL_MAX_CHARS = 56;
/** One override longer than this is cut (with "…"); the tooltip has it whole. */
const OVERRIDE_MAX_CHARS = 36;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Run B's label, and the tooltip that spells out everything B changes. */
export interface LabelB {
  label: string;
  /** Every override, one a line (null when B has none: its label says it all). */
  title: string | null;
}

/**
 * B's label: the viewer's, else its scheduler and routing, else (same as A's) what was changed; and
 * the overrides that label does not show, so that none is hidden (`fcfs · kv-aware + cluster.workers=1`).
 * Beside a derived label they are spelled out while the label stays short, the rest counted
 * (`+2 more`); beside the viewer's own label only counted (`+3 overrides`). The tooltip lists them all.
 */
export function describeB(aLabel: string, bScenario: string, settings: CompareSettings): LabelB {
  const sets = settings.sets ?? [];
  const title = sets.length > 0 ? `Run B overrides:\n${sets.join('\n')}` : null;
  if (settings.label) {
    const n = sets.length;
    return { label: n ? `${settings.label} +${n} override${n === 1 ? '' : 's'}` : settings.label, title };
  }
  const own = runLabel(bScenario);
  // a scheduler or routing set shows in the derived label; anything else would be hidden by it
  const shownByLabel = (set: string) => {
    const key = set.slice(0, Math.max(0, set.indexOf('='))).trim();
    return key === SCHEDULER_KEY || key === ROUTING_KEY;
  };
  const base = own !== aLabel ? own : null;
  const extra = base ? sets.filter((set) => !shownByLabel(set)) : sets;
  if (extra.length === 0)
    return { label: base ?? (settings.scenario !== undefined ? 'edited copy' : 'same as A'), title };
  const lead = base ? `${base} + ` : '';
  const shown: string[] = [];
  for (const set of extra) {
    const next = cut(set, OVERRIDE_MAX_CHARS);
    const rest = extra.length - shown.length - 1;
    const tail = rest > 0 ? ` +${rest} more`.length : 0;
    const length = lead.length + [...shown, next].join(', ').length + tail;
    if (shown.length > 0 && length > LABEL_MAX_CHARS) break;
    shown.push(next);
  }
  const more = extra.length - shown.length;
  return { label: `${lead}${shown.join(', ')}${more > 0 ? ` +${more} more` : ''}`, title };
}

/** B's label alone (see `describeB`). */
export function labelOfB(aLabel: string, bScenario: string, settings: CompareSettings): string {
  return describeB(aLabel, bScenario, settings).label;
}

/**
 * A label split before its trailing count (`+2 more`, `+3 overrides`), so the page can keep the count
 * on one line: a narrow column wrapped it between "+2" and "more".
 */
export function splitLabelCount(label: string): { text: string; count: string | null } {
  const m = / \+\d+ (?:more|overrides?)$/.exec(label);
  return m ? { text: label.slice(0, m.index), count: m[0].slice(1) } : { text: label, count: null };
}
