/**
 * The router's DRR ring: policy classes as ring segments (size ∝ quantum, with a floor so no class
 * vanishes), the cursor as a pointer at the class the next scan starts from, the carry as a marker,
 * and per class its deficit as a bar against its quantum and its head's cost. The last decision's
 * visits are listed in order and drawn as bands around the ring; both replay briefly (CSS) on each
 * new decision so a viewer can follow the scan. Exact numbers are text in the DOM, with data
 * attributes for tests (data-class, data-deficit, data-cursor, data-carry).
 */
import { arc, pie } from 'd3';
import {
  type CSSProperties,
  Fragment,
  type ReactElement,
  useCallback,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { ROOT_PROFILE_NAME } from '../../core/drr/default-policy';
import { storesEveryArrival } from '../../core/drr/release';
import { Term } from '../Glossary';
import { usePresent } from '../present/store';
import type { ClassVisit, DrrPopRecord, DynamoRelease } from '../../core/drr/types';
import { animatePop, motionAllowed, speedUp } from './drr-animate';
import { CHARGE_RULES, phasePeak, phasesOf, type RuleId, ruleOf, VISIT_RULES } from './drr-phases';
import { fmtCount, fmtNum } from './format';
import { colorFor, labelOnFor } from './palette';
import { type Annulus, centreLabel, type LabelLine, labelFits, lineBox, textWidth } from './ring-labels';
import type { SessionSnapshot } from '../../worker/session';
import { useUi } from '../../state/store';
import { type DrrClassModel, type DrrModel, popNumber, readDrrAt } from './read';
import type { ViewProps } from './types';

const R_OUTER = 100;
const R_INNER = 60;
/** Visit bands outside the ring: one lane per phase. */
const LANE = { carry: 102, scan: 108, final: 114 } as const;
const LANE_WIDTH = 4;
const CARRY_R = 125;
/** Smallest share of the ring a class gets, whatever its quantum. */
const MIN_SHARE = 0.08;
/** Seconds between two visits in the replay. */
export const VISIT_STAGGER_S = 0.35;

export type ClassState = 'empty' | 'blocked' | 'affordable' | 'short';

export function classState(c: DrrClassModel): ClassState {
  if (c.queued <= 0) return 'empty';
  if (c.blocked) return 'blocked';
  return c.head_cost !== null && c.head_cost <= c.deficit ? 'affordable' : 'short';
}

/** Rounds of quantum a class still needs before its head is affordable (0 when it already is). */
export function roundsNeeded(c: DrrClassModel): number | null {
  if (c.head_cost === null || c.quantum <= 0) return null;
  return Math.max(0, Math.ceil((c.head_cost - c.deficit) / c.quantum));
}

function stateText(c: DrrClassModel): string {
  const s = classState(c);
  if (s === 'empty') return 'empty';
  if (s === 'blocked') return 'blocked head';
  if (s === 'affordable') return 'head affordable';
  const r = roundsNeeded(c);
  return r === null ? 'waiting' : `needs ${r} round${r === 1 ? '' : 's'}`;
}

type Tone = 'ok' | 'short' | 'blocked' | 'empty';

function visitTone(v: ClassVisit): Tone {
  switch (v.outcome) {
    case 'affordable':
    case 'granted':
    case 'chosen':
      return 'ok';
    case 'blocked':
      return 'blocked';
    case 'empty':
      return 'empty';
    default:
      return 'short';
  }
}

const TONE_GLYPH: Record<Tone, string> = { ok: '✓', short: '+', blocked: '⊘', empty: '∅' };

/**
 * One line of plain words for a visit, with its numbers. `quantum` is the class's quantum (needed to
 * show the credit a `granted` visit received before it paid for the head).
 */
export function visitText(v: ClassVisit, quantum: number | null = null): string {
  const cost =
    v.head_cost === null ? 'the head' : `${v.head_id ?? 'the head'} (cost ${fmtCount(v.head_cost)})`;
  const d0 = fmtCount(v.deficit_before);
  // a take that empties the class's queue resets what the cost left to 0: say so, or "pays for
  // a0 (cost 3), keeps 0" after earning 10 reads as a miscount
  const keeps = (from: number | null) => {
    const left = v.head_cost === null || from === null ? v.deficit_after : Math.max(0, from - v.head_cost);
    return left === v.deficit_after
      ? `keeps ${fmtCount(left)}`
      : `${fmtCount(left)} left, reset to ${fmtCount(v.deficit_after)}: its queue is now empty`;
  };
  switch (v.outcome) {
    case 'empty':
      return `${v.class}: empty, deficit reset to 0`;
    case 'blocked':
      return `${v.class}: head not dispatchable (blocked), keeps deficit ${d0}, earns nothing`;
    case 'affordable':
      return v.phase === 'carry'
        ? `${v.class}: carried deficit ${d0} pays for ${cost}, ${keeps(v.deficit_before)}`
        : `${v.class}: saved deficit ${d0} pays for ${cost}, ${keeps(v.deficit_before)}`;
    case 'granted': {
      const q = quantum ?? v.quantum ?? null;
      const peak = q === null ? null : v.deficit_before + q;
      const earned = quantum === null ? '' : ` ${d0} → ${fmtCount(v.deficit_before + quantum)}`;
      return `${v.class}: earns its quantum${earned}, pays for ${cost}, ${keeps(peak)}`;
    }
    case 'unaffordable':
      return v.phase === 'carry'
        ? `${v.class}: carried deficit ${d0} is short of ${cost}`
        : `${v.class}: earns its quantum ${d0} → ${fmtCount(v.deficit_after)}, still short of ${cost}`;
    case 'chosen':
      return `${v.class}: after the bulk rounds deficit ${d0} pays for ${cost}, ${keeps(v.deficit_before)}`;
    case 'short':
      return `${v.class}: after the bulk rounds deficit ${d0} is still short of ${cost}`;
  }
}

/**
 * Replay order: each visit gets a slot (its position in the animation), and the bulk step takes the
 * slot just before the first final-scan visit.
 */
export function visitSlots(rec: DrrPopRecord): { visits: number[]; bulk: number | null; stagger: number } {
  const slots: number[] = [];
  let bulk: number | null = null;
  let next = 0;
  for (const v of rec.visits) {
    if (v.phase === 'final' && bulk === null && rec.bulk_rounds !== null) bulk = next++;
    slots.push(next++);
  }
  if (bulk === null && rec.bulk_rounds !== null) bulk = next++;
  // a long scan replays faster, so the verdict is never more than MAX_REPLAY_S away
  const stagger = Math.min(VISIT_STAGGER_S, MAX_REPLAY_S / Math.max(1, next - 1));
  return { visits: slots, bulk, stagger };
}

/** Longest replay of one arbitration (s): the last visit, the verdict, starts by then. */
export const MAX_REPLAY_S = 1;

const PHASE_LABEL: Record<ClassVisit['phase'], string> = { carry: 'carry', scan: 'scan', final: 'final' };

interface Segment {
  cls: DrrClassModel;
  index: number;
  start: number;
  end: number;
  mid: number;
}

/** Ring geometry: clockwise from 12 o'clock, in class declaration order. */
export function ringSegments(classes: readonly DrrClassModel[]): Segment[] {
  const total = classes.reduce((s, c) => s + Math.max(0, c.quantum), 0);
  const weights = classes.map((c) =>
    total > 0 ? Math.max(Math.max(0, c.quantum) / total, MIN_SHARE) : 1 / classes.length,
  );
  const arcs = pie<number>()
    .sort(null)
    .value((w) => w)
    .padAngle(classes.length > 1 ? 0.03 : 0)(weights);
  return arcs.map((a, i) => ({
    cls: classes[i],
    index: i,
    start: a.startAngle,
    end: a.endAngle,
    mid: (a.startAngle + a.endAngle) / 2,
  }));
}

/** Font sizes (viewBox units) of a segment's name and count, as views.css draws them. */
const NAME_SIZE = 15;
const COUNT_SIZE = 15;
/**
 * A name written along the arc keeps to the ring's outer band, a count under it to the inner band;
 * the gap between the bands (78 to 82, plus the name's descent or its baseline's inset) keeps the
 * count clear of the name's letters.
 */
const NAME_BAND = { inner: 82, outer: R_OUTER } as const;
const COUNT_BAND_OUTER = 78;
/** The inner band as an annulus, for a count written along the arc. */
const COUNT_BAND = { inner: R_INNER, outer: COUNT_BAND_OUTER } as const;
/** Least distance (viewBox units, along the arc) between a name's end and a count beside it. */
const COUNT_GAP = 8;

/**
 * How a segment's label is drawn, each part only where it lies wholly inside its segment
 * (ring-labels.ts), never over a neighbour, the hub or the arcs outside the ring:
 * - `two`: the name over the count, level, at the segment's middle (or the name alone, level, for an
 *   empty class);
 * - `arc`: the name written along the segment's arc in the outer band (a long segment near the top
 *   or bottom has the length, not the height, for a level name), the count level in the inner band,
 *   or, where it fits nowhere level (a narrow segment), along the arc in the inner band (`countArc`);
 * - else the count alone, level; else nothing (the name and numbers are in the table beside the ring,
 *   and in the segment's title).
 */
export type SegmentLabel =
  | { kind: 'two'; name: boolean; count: boolean }
  | { kind: 'arc'; arc: string; count: boolean; countAt: [number, number]; countArc?: string }
  | { kind: 'count' }
  | { kind: 'none' };

export function segmentLabel(
  seg: { start: number; end: number; mid: number },
  name: string,
  countText: string | null,
): SegmentLabel {
  const [ax, ay] = polar((R_INNER + R_OUTER) / 2, seg.mid);
  const ring = { inner: R_INNER, outer: R_OUTER, start: seg.start, end: seg.end };
  const nameW = textWidth(name, NAME_SIZE, 700);
  const countW = countText === null ? 0 : textWidth(countText, COUNT_SIZE, 400);
  const single = (w: number, size: number): LabelLine[] => [lineBox(w, size, 0.35 * size)];
  if (countText !== null) {
    const nameBase = -0.2 * NAME_SIZE;
    const two = [
      lineBox(nameW, NAME_SIZE, nameBase),
      lineBox(countW, COUNT_SIZE, nameBase + 1.15 * COUNT_SIZE),
    ];
    if (labelFits(two, ax, ay, ring)) return { kind: 'two', name: true, count: true };
  } else if (labelFits(single(nameW, NAME_SIZE), ax, ay, ring))
    return { kind: 'two', name: true, count: false };
  const arc = arcLabelPath(seg, nameW);
  if (arc !== null) {
    if (countText === null) return { kind: 'arc', arc: arc.d, count: false, countAt: [0, 0] };
    const count = single(countW, COUNT_SIZE);
    // under the name, in the inner band; else level beside it, in the part of the segment the name
    // leaves free on either side
    const rIn = (R_INNER + COUNT_BAND_OUTER) / 2;
    const rMid = (R_INNER + R_OUTER) / 2;
    // beside the name, a count keeps COUNT_GAP clear of the name's ends (not only the path's pad)
    const gap = COUNT_GAP / rMid;
    const places: { r: number; a: number; band: Annulus }[] = [
      {
        r: rIn,
        a: seg.mid,
        band: { inner: R_INNER, outer: COUNT_BAND_OUTER, start: seg.start, end: seg.end },
      },
      {
        r: rMid,
        a: (arc.a1 + gap + seg.end) / 2,
        band: { ...ring, start: arc.a1 + gap, end: seg.end },
      },
      {
        r: rMid,
        a: (seg.start + arc.a0 - gap) / 2,
        band: { ...ring, start: seg.start, end: arc.a0 - gap },
      },
    ];
    for (const p of places) {
      const [cx, cy] = polar(p.r, p.a);
      if (labelFits(count, cx, cy, p.band))
        return { kind: 'arc', arc: arc.d, count: true, countAt: [cx, cy] };
    }
    // along the arc under the name, in the inner band (its letters turn with the ring, as the name's do)
    const under = arcLabelPath(seg, countW, COUNT_BAND);
    if (under !== null) return { kind: 'arc', arc: arc.d, count: true, countAt: [0, 0], countArc: under.d };
  }
  if (countText !== null && labelFits(single(countW, COUNT_SIZE), ax, ay, ring)) return { kind: 'count' };
  return { kind: 'none' };
}

/** Whether a label shows the name it was given (level or along the arc). */
function showsName(fit: SegmentLabel): boolean {
  return (fit.kind === 'two' && fit.name) || fit.kind === 'arc';
}

/**
 * Short forms of a queue length for a segment too narrow for all its digits, the most precise first,
 * each rounded to the nearest: 1 834 → "1.8k", "2k"; 12 345 → "12k"; 1 250 000 → "1.3M", "1M".
 * Under 1 000 the number itself.
 */
export function shortCounts(n: number): string[] {
  if (n < 1000) return [`${n}`];
  const [v, unit] = n < 999_500 ? [n / 1000, 'k'] : [n / 1_000_000, 'M'];
  const whole = `${Math.round(v)}${unit}`;
  const tenth = `${Math.round(v * 10) / 10}${unit}`;
  return tenth === whole || v >= 10 ? [whole] : [tenth, whole];
}

/** A class's key on the ring when its name fits nowhere there: its place in ring order (#13). */
export function ringKey(index: number): string {
  return `#${index + 1}`;
}

/**
 * A segment's label, or, when its name fits neither level nor along its arc, its key (`#3`, also
 * beside the name in the table) in the name's place; with the count whenever it fits anywhere in the
 * segment (`plainCount`, the count without the blocked mark, when only that fits: the hatching says
 * blocked), else alone; `keyed` says which, `countText` which count is drawn (`swapped`: the count
 * along the outer arc and the key along the inner one). Only when not even the key fits is the
 * segment left with its count or nothing.
 */
export function segmentLabelOrKey(
  seg: { start: number; end: number; mid: number },
  name: string,
  key: string,
  countText: string | null,
  plainCount: string | null = countText,
): { fit: SegmentLabel; keyed: boolean; countText: string | null; swapped?: true; shortened?: true } {
  const counts = [...new Set([countText, plainCount])];
  for (const [label, keyed] of [
    [name, false],
    [key, true],
  ] as const)
    for (const c of counts) {
      const fit = segmentLabel(seg, label, c);
      if (showsName(fit)) return { fit, keyed, countText: c };
    }
  // a count longer than the key (three digits in the narrowest segment): the count along the outer
  // arc, where there is more length, the key along the inner one
  for (const c of counts) {
    if (c === null) continue;
    const fit = segmentLabel(seg, c, key);
    if (fit.kind === 'arc' && fit.count && fit.countArc !== undefined)
      return { fit, keyed: true, countText: c, swapped: true };
  }
  // four digits and more fit neither way: the count shortened (1 834 → 1.8k or 2k; the segment's title and
  // the table keep the whole number), beside the key or along the outer arc
  for (const c of counts) {
    if (c === null) continue;
    const digits = /\d{4,}/.exec(c);
    if (digits === null) continue;
    for (const form of shortCounts(Number(digits[0]))) {
      const short = c.replace(digits[0], form);
      const beside = segmentLabel(seg, key, short);
      if (beside.kind === 'arc' ? beside.count : beside.kind === 'two' && beside.count)
        return { fit: beside, keyed: true, countText: short, shortened: true };
      const fit = segmentLabel(seg, short, key);
      if (fit.kind === 'arc' && fit.count && fit.countArc !== undefined)
        return { fit, keyed: true, countText: short, swapped: true, shortened: true };
    }
  }
  const alone = segmentLabel(seg, key, null);
  if (showsName(alone)) return { fit: alone, keyed: true, countText: null };
  return { fit: segmentLabel(seg, name, countText), keyed: false, countText };
}

/**
 * The path a name of width `w` follows along the segment's outer band, read left to right: clockwise
 * over the top half of the ring (letters standing outward), anticlockwise under the bottom half
 * (letters standing inward); null when the arc is too short for it.
 */
export function arcLabelPath(
  seg: { start: number; end: number; mid: number },
  w: number,
  band: { inner: number; outer: number } = NAME_BAND,
): { d: string; a0: number; a1: number } | null {
  const top = Math.cos(seg.mid) >= 0;
  // the baseline so that the letters (ascent 0.78 em, descent 0.24 em) stay inside the band
  const r = top ? band.inner + 0.24 * NAME_SIZE + 1 : band.outer - 0.24 * NAME_SIZE - 2;
  const pad = 3 / r;
  if (seg.end - seg.start - 2 * pad < w / r) return null;
  // just long enough for the name, centred on the segment's middle (a path longer than a half turn
  // would bend the name round the ring)
  const half = Math.min((seg.end - seg.start) / 2 - pad, w / r / 2 + pad);
  const a0 = seg.mid - half;
  const a1 = seg.mid + half;
  const [x0, y0] = polar(r, top ? a0 : a1);
  const [x1, y1] = polar(r, top ? a1 : a0);
  return { d: `M${r1(x0)},${r1(y0)}A${r1(r)},${r1(r)} 0 0 ${top ? 1 : 0} ${r1(x1)},${r1(y1)}`, a0, a1 };
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * A class name for the ring's centre: one line when it fits, else two, split at the `_`, `-` or
 * space nearest the middle ("interactive" / "_cached"), each shortened to fit the hub.
 */
export function centerLines(name: string): string[] {
  if (name.length <= 10) return [name];
  const parts = splitCenterName(name);
  return parts.length > 1 ? parts.map((p) => shorten(p, 12)) : [shorten(name, 12)];
}

/** A class name in two at the `_`, `-` or space nearest its middle (as centerLines, unshortened). */
export function splitCenterName(name: string): string[] {
  let cut = -1;
  for (let i = 1; i < name.length - 1; i++)
    if (
      '_- '.includes(name[i]) &&
      (cut < 0 || Math.abs(i - name.length / 2) < Math.abs(cut - name.length / 2))
    )
      cut = i;
  if (cut < 0) return [name];
  // as the deficit table breaks it (nameParts): before a `_`, after a `-`, a space dropped
  const at = name[cut] === '-' ? cut + 1 : cut;
  const rest = name[cut] === ' ' ? cut + 1 : at;
  return [name.slice(0, at), name.slice(rest)];
}

/**
 * A class name that may wrap before its `_` or after its `-` (not mid-word), so its swatch stays on
 * its line and each part reads as a word: "interactive" / "_cached".
 */
export function nameParts(name: string): string[] {
  return name.split(/(?=_)|(?<=-)/).filter((p) => p !== '');
}

function breakable(name: string): ReactElement {
  const parts = nameParts(name);
  return (
    <span className="drr-name">
      {parts.map((p, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed name, in order
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {p}
        </Fragment>
      ))}
    </span>
  );
}

function polar(r: number, angle: number): [number, number] {
  return [r * Math.sin(angle), -r * Math.cos(angle)];
}

function r1(x: number): number {
  return Math.round(x * 10) / 10;
}

const segmentArc = arc<{ startAngle: number; endAngle: number; innerRadius: number; outerRadius: number }>();

function arcPath(start: number, end: number, inner: number, outer: number): string {
  return segmentArc({ startAngle: start, endAngle: end, innerRadius: inner, outerRadius: outer }) ?? '';
}

function describeRing(m: DrrModel): string {
  const parts = [
    `${m.classes.length} class${m.classes.length === 1 ? '' : 'es'} on the ring`,
    `cursor at ${m.cursor ?? 'none'}`,
    `carry ${m.carry ?? 'none'}`,
  ];
  const rows = m.classes.map(
    (c) =>
      `${c.name}: deficit ${fmtCount(c.deficit)} of quantum ${fmtCount(c.quantum)}, ${fmtCount(c.queued)} queued` +
      (c.head_cost !== null ? `, head costs ${fmtCount(c.head_cost)}` : '') +
      `, ${stateText(c)}`,
  );
  return `${parts.join('; ')}. ${rows.join('. ')}.`;
}

function recordKey(snapshot: SessionSnapshot | null, rec: DrrPopRecord | null): string {
  return `${snapshot?.decisions ?? ''}|${rec ? rec.summary : ''}`;
}

const noPolicyMessage = (
  <>
    This scenario has no router policy: add <code>router.policy</code> to see policy-class queues.
  </>
);

/**
 * What the ring says about whose state it draws when the playhead stands inside one event (the log
 * hands that event's decisions out one at a time, the snapshot is after all of them).
 */
export function stateNote(m: DrrModel, playhead: number): string | null {
  if (m.stateAfter === null) return null;
  if (m.popNo !== null)
    return `Deficits, cursor and carry: right after decision ${fmtCount(m.popNo)}, this pop (its record carries them). Queued requests and heads: after decision ${fmtCount(m.stateAfter)}, the end of the same event (the log hands its decisions out one at a time).`;
  return `The ring shows the state after decision ${fmtCount(m.stateAfter)}: decision${m.stateAfter === playhead + 1 ? ` ${fmtCount(m.stateAfter)} was` : `s ${fmtCount(playhead + 1)}–${fmtCount(m.stateAfter)} were`} taken in the same event as decision ${fmtCount(playhead)} (the log hands them out one at a time).`;
}

/** The log's decision at the snapshot's playhead (#n = `decisions`), when the log holds it. */
function usePlayheadDecision(snapshot: SessionSnapshot | null) {
  const seq =
    snapshot?.kind === 'cluster' && snapshot.state_decisions !== undefined ? snapshot.decisions - 1 : -1;
  return useUi((s) => {
    if (seq < 0) return null;
    for (let i = s.decisions.length - 1; i >= 0; i--) if (s.decisions[i].seq === seq) return s.decisions[i];
    return null;
  });
}

export function DrrRing({ snapshot, highlight }: ViewProps) {
  const atPlayhead = usePlayheadDecision(snapshot);
  // a number, not the log: the ring re-renders when it changes, not at every new line
  const recordNo = useUi((s) => popNumber(snapshot, s.decisions));
  const model = readDrrAt(snapshot, atPlayhead, recordNo);
  const uid = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const lastAngle = useRef<number | null>(null);
  const sectionRef = useRef<HTMLElement | null>(null);
  // The ring's scale on screen (px per viewBox unit, 272 units across), for the centre label's floor.
  const [ringScale, setRingScale] = useState(1);
  // presenting, the views' text is 18 px and up (theme.css), the centre's too
  const leastPx = usePresent((s) => s.presenting) ? 18 : 14;
  const ringObserver = useRef<ResizeObserver | null>(null);
  const ringRef = useCallback((el: SVGSVGElement | null) => {
    ringObserver.current?.disconnect();
    ringObserver.current = null;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const update = () => {
      const r = el.getBoundingClientRect();
      const scale = Math.min(r.width, r.height) / 272;
      if (scale > 0) setRingScale((old) => (Math.abs(old - scale) > 0.01 ? scale : old));
    };
    update();
    ringObserver.current = new ResizeObserver(update);
    ringObserver.current.observe(el);
  }, []);
  // The pop to animate: a new record reached by one step forward (a seek or a jump shows end states).
  const seen = useRef<{ key: string; step: number | null } | null>(null);
  const animateKey = useRef<string | null>(null);
  const anim = useRef<{
    key: string;
    phases: ReturnType<typeof phasesOf>;
    start: Map<string, number>;
    from: number | null;
  } | null>(null);
  const drawn = useRef<{ key: string; pct: (v: number) => string; cursorTo: number | null }>({
    key: '',
    pct: () => '0%',
    cursorTo: null,
  });
  // Run the pop's phases on the DOM once its end state is committed (before paint, so nothing flashes).
  const drawnKey = model ? recordKey(snapshot, model.record) : '';
  useLayoutEffect(() => {
    const root = sectionRef.current;
    const a = anim.current;
    if (!root || !a || a.key !== drawnKey || !motionAllowed(root)) return;
    const speed = speedUp(a.phases);
    if (speed === null) return;
    const cancel = animatePop(root, a.phases, speed, {
      pct: drawn.current.pct,
      start: a.start,
      cursorFrom: a.from,
      cursorTo: drawn.current.cursorTo,
      onDone: () => {
        if (anim.current === a) anim.current = null;
      },
    });
    return cancel;
  }, [drawnKey]);

  if (!model || model.classes.length === 0) {
    lastAngle.current = null;
    return (
      <section className="panel view drr-view view-empty" aria-label="DRR ring" data-cursor="" data-carry="">
        <h2>DRR ring</h2>
        <p className="empty">{model ? 'The policy has no classes on this ring yet.' : noPolicyMessage}</p>
      </section>
    );
  }

  const segs = ringSegments(model.classes);
  const countOf = (c: DrrClassModel) =>
    classState(c) === 'empty' ? null : classState(c) === 'blocked' ? `⊘ ${c.queued}` : `${c.queued}`;
  const labels = segs.map((sg) =>
    segmentLabelOrKey(
      sg,
      sg.cls.name,
      ringKey(sg.index),
      countOf(sg.cls),
      classState(sg.cls) === 'empty' ? null : `${sg.cls.queued}`,
    ),
  );
  const rec = model.record;
  const key = recordKey(snapshot, rec);
  const step = snapshot?.decisions ?? null;
  if (seen.current?.key !== key) {
    const prev = seen.current;
    animateKey.current =
      rec && prev !== null && (step === null || prev.step === null || step === prev.step + 1) ? key : null;
    seen.current = { key, step };
  }
  const cursorSeg = segs.find((s) => s.cls.name === model.cursor) ?? null;
  const carrySeg = segs.find((s) => s.cls.name === model.carry) ?? null;

  // The pointer only ever turns clockwise, as the DRR cursor does; the angle is unwrapped against the
  // previous render so the CSS transition takes the short, forward way round.
  let cursorDeg: number | null = null;
  if (cursorSeg) {
    const target = (cursorSeg.mid * 180) / Math.PI;
    const prev = lastAngle.current;
    cursorDeg = prev === null ? target : prev + ((((target - prev) % 360) + 360) % 360);
    lastAngle.current = cursorDeg;
  }
  const quantumOf = new Map(model.classes.map((c) => [c.name, c.quantum]));
  if (animateKey.current !== key) anim.current = null;
  else if (rec && anim.current?.key !== key) {
    const fromSeg = segs.find((x) => x.cls.name === rec.cursor_before);
    // the pointer starts where it was before the pop and turns forward to where it is now
    const fromDeg =
      fromSeg && cursorDeg !== null
        ? cursorDeg - ((((cursorDeg - (fromSeg.mid * 180) / Math.PI) % 360) + 360) % 360)
        : null;
    anim.current = {
      key,
      phases: phasesOf(rec, quantumOf),
      start: new Map(
        model.classes.map((c) => [c.name, rec.deficits.find((d) => d.class === c.name)?.before ?? c.deficit]),
      ),
      from: fromDeg,
    };
  }
  // the scale holds the pop's peaks too (bulk credit's 10,000 before paying 9,000), so no bar clips mid-step
  const peak = rec ? phasePeak(phasesOf(rec, quantumOf)) : 0;
  const scaleMax =
    Math.max(1, peak, ...model.classes.map((c) => Math.max(c.quantum, c.deficit, c.head_cost ?? 0))) * 1.05;
  const pct = (v: number) => `${r1(Math.max(0, Math.min(100, (v / scaleMax) * 100)))}%`;
  drawn.current = { key, pct, cursorTo: cursorDeg };
  const selectedClass = highlight?.class ?? null;
  const chosenClass = rec?.chosen?.class ?? null;
  const titleId = `${uid}-t`;
  const descId = `${uid}-d`;
  const hatchId = `${uid}-hatch`;
  const summary = describeRing(model);
  const note = snapshot ? stateNote(model, snapshot.decisions) : null;

  const bands = (rec?.visits ?? []).map((v, i) => {
    const seg = segs.find((s) => s.cls.name === v.class);
    if (!seg) return null;
    const inner = LANE[v.phase];
    return (
      <path
        key={`${v.phase}:${v.class}`}
        className={`drr-visit-band tone-${visitTone(v)}`}
        d={arcPath(seg.start, seg.end, inner, inner + LANE_WIDTH)}
        data-visit={i + 1}
        data-visit-index={i}
      >
        <title>{`visit ${i + 1} (${PHASE_LABEL[v.phase]}): ${visitText(v, quantumOf.get(v.class) ?? null)}`}</title>
      </path>
    );
  });

  return (
    <section
      ref={sectionRef}
      className="panel view drr-view"
      aria-label="DRR ring"
      data-cursor={model.cursor ?? ''}
      data-carry={model.carry ?? ''}
      data-variant={model.variant ?? ''}
      data-kind={snapshot?.kind ?? ''}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a focused view takes ← / → to move the playhead
      tabIndex={0}
      aria-keyshortcuts="ArrowLeft ArrowRight"
    >
      <h2>
        DRR ring{' '}
        <span className="view-sub">
          {model.profile ? (
            <Term id={model.profile === ROOT_PROFILE_NAME ? 'profile-root' : 'profile'}>
              profile {model.profile}
            </Term>
          ) : null}
          {model.variant ? ' · ' : ''}
          {model.variant ? (
            <Term id={model.variant === 'v2' ? 'drr-v2' : 'drr-v1'}>{model.variant.toUpperCase()}</Term>
          ) : null}
        </span>
      </h2>
      <p className="vh">{summary}</p>
      {note && (
        <p className="wk-ahead drr-ahead" role="note">
          {note}
        </p>
      )}
      <div className="drr-layout">
        <figure className="drr-figure">
          <svg
            ref={ringRef}
            className="drr-ring"
            viewBox="-136 -136 272 272"
            role="img"
            aria-labelledby={`${titleId} ${descId}`}
          >
            <title id={titleId}>DRR ring: classes clockwise from the top, segment size ∝ quantum</title>
            <desc id={descId}>{summary}</desc>
            <defs>
              <pattern
                id={hatchId}
                width="6"
                height="6"
                patternUnits="userSpaceOnUse"
                patternTransform="rotate(45)"
              >
                <rect width="6" height="6" className="drr-hatch-bg" />
                <line x1="0" y1="0" x2="0" y2="6" className="drr-hatch-line" />
              </pattern>
            </defs>
            {segs.map((s) => {
              const state = classState(s.cls);
              const [lx, ly] = polar((R_INNER + R_OUTER) / 2, s.mid);
              const { fit, keyed, countText, swapped, shortened } = labels[s.index];
              // a name that fits nowhere on the ring is drawn as its key, named in its tooltip (with
              // the whole count when the ring shows it shortened)
              const shown = keyed ? ringKey(s.index) : s.cls.name;
              const keyTitle = keyed ? (
                <title>{`${ringKey(s.index)} = ${s.cls.name} (the name is in the table)${shortened ? `, ${fmtCount(s.cls.queued)} queued` : ''}`}</title>
              ) : null;
              const cls = [
                'drr-seg',
                `state-${state}`,
                selectedClass === s.cls.name ? 'selected' : '',
                s.cls.name === model.cursor ? 'at-cursor' : '',
              ]
                .filter(Boolean)
                .join(' ');
              return (
                <g
                  key={s.cls.name}
                  className={cls}
                  data-class={s.cls.name}
                  // the labels' ink (black or white, whichever reads at AA on this fill) and their
                  // halo in the fill itself, so hatching under a glyph does not lower its contrast
                  style={
                    { '--seg-on': labelOnFor(s.index), '--seg-fill': colorFor(s.index) } as CSSProperties
                  }
                >
                  <path
                    className="drr-seg-shape"
                    d={arcPath(s.start, s.end, R_INNER, R_OUTER)}
                    style={{ fill: colorFor(s.index) }}
                  />
                  {state === 'blocked' && (
                    <path
                      className="drr-blocked-overlay"
                      d={arcPath(s.start, s.end, R_INNER, R_OUTER)}
                      style={{ fill: `url(#${hatchId})` }}
                    />
                  )}
                  {chosenClass === s.cls.name && (
                    <path
                      key={key}
                      className="drr-granted-flash"
                      d={arcPath(s.start, s.end, R_INNER - 3, R_OUTER + 1)}
                    />
                  )}
                  <title>{`${s.cls.name}: deficit ${fmtCount(s.cls.deficit)} / quantum ${fmtCount(s.cls.quantum)}, ${fmtCount(s.cls.queued)} queued, ${stateText(s.cls)}`}</title>
                  {fit.kind === 'two' && (
                    <text
                      className={`drr-seg-label${keyed ? ' drr-seg-keyed' : ''}`}
                      x={r1(lx)}
                      y={r1(ly)}
                      textAnchor="middle"
                    >
                      {keyTitle}
                      <tspan x={r1(lx)} dy={fit.count ? '-0.2em' : '0.35em'} className="drr-seg-name">
                        {shown}
                      </tspan>
                      {fit.count && (
                        <tspan x={r1(lx)} dy="1.15em" className="drr-seg-count">
                          {countText}
                        </tspan>
                      )}
                    </text>
                  )}
                  {fit.kind === 'arc' && (
                    <>
                      <path id={`${hatchId}-arc-${s.index}`} d={fit.arc} className="drr-seg-arc" />
                      <text className={`drr-seg-label${keyed ? ' drr-seg-keyed' : ''}`}>
                        {keyTitle}
                        <textPath
                          href={`#${hatchId}-arc-${s.index}`}
                          startOffset="50%"
                          textAnchor="middle"
                          className="drr-seg-name"
                        >
                          {/* swapped: each text in the style it was measured in (the outer one bold) */}
                          {swapped ? countText : shown}
                        </textPath>
                      </text>
                      {fit.count && fit.countArc !== undefined && (
                        <>
                          <path id={`${hatchId}-count-${s.index}`} d={fit.countArc} className="drr-seg-arc" />
                          <text className="drr-seg-label">
                            <textPath
                              href={`#${hatchId}-count-${s.index}`}
                              startOffset="50%"
                              textAnchor="middle"
                              className="drr-seg-count"
                            >
                              {swapped ? shown : countText}
                            </textPath>
                          </text>
                        </>
                      )}
                      {fit.count && fit.countArc === undefined && (
                        <text
                          className="drr-seg-label"
                          x={r1(fit.countAt[0])}
                          y={r1(fit.countAt[1])}
                          textAnchor="middle"
                        >
                          <tspan x={r1(fit.countAt[0])} dy="0.35em" className="drr-seg-count">
                            {countText}
                          </tspan>
                        </text>
                      )}
                    </>
                  )}
                  {fit.kind === 'count' && (
                    <text className="drr-seg-label" x={r1(lx)} y={r1(ly)} textAnchor="middle">
                      <tspan x={r1(lx)} dy="0.35em" className="drr-seg-count">
                        {countText}
                      </tspan>
                    </text>
                  )}
                </g>
              );
            })}
            <g key={`bands-${key}`} className="drr-visits-g">
              {bands}
            </g>
            {carrySeg &&
              (() => {
                const [cx, cy] = polar(CARRY_R, carrySeg.mid);
                return (
                  <path
                    className="drr-carry"
                    d={`M${r1(cx)},${r1(cy - 6)}L${r1(cx + 6)},${r1(cy)}L${r1(cx)},${r1(cy + 6)}L${r1(cx - 6)},${r1(cy)}Z`}
                    data-carry={carrySeg.cls.name}
                  >
                    <title>{`carry: ${carrySeg.cls.name} keeps its burst and is tried first next time`}</title>
                  </path>
                );
              })()}
            {cursorDeg !== null && (
              <g
                className="drr-cursor"
                style={{ transform: `rotate(${r1(cursorDeg)}deg)` }}
                data-end-rotate={`rotate(${r1(cursorDeg)}deg)`}
              >
                <path
                  d={`M0,-${R_INNER - 3}L-7,-${R_INNER - 15}L-2,-${R_INNER - 15}L-2,-8L2,-8L2,-${R_INNER - 15}L7,-${R_INNER - 15}Z`}
                />
                <title>{`cursor: the next scan starts at ${model.cursor}`}</title>
              </g>
            )}
            <circle r="7" className="drr-hub" />
            {(() => {
              const name = model.cursor ?? '—';
              // Under the hub unless the pointer heads down there: then above it, so the arrow never
              // crosses the words (F14; up to ~100° from straight up the arrowhead passes beside them).
              const above = cursorDeg !== null && Math.cos((cursorDeg * Math.PI) / 180) < -0.2;
              // inside the hole whatever the ring's drawn size: never over a segment's label, and
              // never under 14 px on screen, 18 presenting (the ring's scale says how many units that is)
              const c = centreLabel(name, splitCenterName(name), leastPx / ringScale, above);
              const size = c.size === 15 ? undefined : { fontSize: `${c.size}px` };
              return (
                <>
                  {c.kY !== null && (
                    <text
                      className="drr-center-k"
                      y={r1(c.kY)}
                      textAnchor="middle"
                      data-above={above || undefined}
                      style={size}
                    >
                      next scan
                    </text>
                  )}
                  <text
                    className="drr-center"
                    textAnchor="middle"
                    style={size}
                    data-shortened={c.shortened || undefined}
                  >
                    {c.shortened || c.kY === null ? <title>{`next scan: ${name}`}</title> : null}
                    {c.lines.map((l, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one name, in order
                      <tspan key={`${i}-${l}`} x="0" y={r1(c.nameY[i])}>
                        {l}
                      </tspan>
                    ))}
                  </text>
                </>
              );
            })()}
          </svg>
          <figcaption className="drr-legend">
            <span>
              <svg width="14" height="12" aria-hidden="true">
                <path d="M7,1L12,6L7,11L2,6Z" className="drr-carry" />
              </svg>{' '}
              carry {model.carry ?? 'none'}
            </span>
            <span>
              <svg width="14" height="12" aria-hidden="true">
                <path d="M2,6L12,6M8,2L12,6L8,10" className="drr-cursor-legend" />
              </svg>{' '}
              cursor {model.cursor ?? '—'}
            </span>
            <span>
              {/* the hatch's stripes are the panel's colour, drawn over a segment's fill: the swatch
                  gives them a neutral fill to stripe, and the dashed outline the ring draws */}
              <svg width="16" height="14" aria-hidden="true" className="drr-blocked-key">
                <rect x="1" y="1" width="14" height="12" className="drr-blocked-key-fill" />
                <rect
                  x="1"
                  y="1"
                  width="14"
                  height="12"
                  className="drr-blocked-overlay"
                  style={{ fill: `url(#${hatchId})` }}
                />
              </svg>{' '}
              blocked
            </span>
            <span>number = requests queued; #n = the class numbered n in the table</span>
            <span className="drr-arc-key">
              outer arcs = {model.popNo !== null ? `decision ${fmtCount(model.popNo)}'s` : "the last pop's"}{' '}
              visits (inner lane carry, middle scan, outer after bulk):{' '}
              <span className="key-arc tone-ok" aria-hidden="true" /> took{' '}
              <span className="key-arc tone-short" aria-hidden="true" /> short{' '}
              <span className="key-arc tone-blocked" aria-hidden="true" /> blocked{' '}
              <span className="key-arc tone-empty" aria-hidden="true" /> empty; outlined segment = the class
              that took
            </span>
          </figcaption>
        </figure>
        <div className="drr-side">
          <table className="drr-table">
            <caption className="vh">Deficit, quantum and head cost per class (uncached tokens)</caption>
            <thead>
              <tr>
                <th scope="col">class</th>
                <th scope="col" className="num">
                  deficit / quantum
                </th>
                <th scope="col" className="num drr-wide">
                  head cost
                </th>
                <th scope="col" className="num drr-wide">
                  queued
                </th>
              </tr>
            </thead>
            {model.classes.map((c, i) => {
              const state = classState(c);
              const rowCls = [
                `state-${state}`,
                c.name === model.cursor ? 'at-cursor' : '',
                selectedClass === c.name ? 'selected' : '',
              ]
                .filter(Boolean)
                .join(' ');
              return (
                <tbody key={c.name} className={rowCls} data-class={c.name}>
                  <tr
                    className="drr-row"
                    data-class={c.name}
                    data-deficit={c.deficit}
                    data-quantum={c.quantum}
                    data-queued={c.queued}
                    data-head-cost={c.head_cost ?? ''}
                    data-state={state}
                  >
                    <th scope="row">
                      <span className="drr-cls">
                        <span className="swatch" style={{ background: colorFor(i) }} aria-hidden="true" />
                        {labels[i]?.keyed && (
                          <span className="drr-key" title={`${c.name} is marked ${ringKey(i)} on the ring`}>
                            {ringKey(i)}
                          </span>
                        )}
                        {breakable(c.name)}
                      </span>
                      {c.name === model.cursor && (
                        <span className="drr-tag" title="the next scan starts here">
                          cursor
                        </span>
                      )}
                      {c.name === model.carry && (
                        <span className="drr-tag carry" title="keeps its burst; tried first next time">
                          carry
                        </span>
                      )}
                    </th>
                    <td className="num drr-dq">
                      <span className="drr-deficit" data-end={fmtCount(c.deficit)}>
                        {fmtCount(c.deficit)}
                      </span>{' '}
                      <span className="drr-q">/ {fmtCount(c.quantum)}</span>
                    </td>
                    <td className="num drr-wide">{c.head_cost === null ? '—' : fmtCount(c.head_cost)}</td>
                    <td className="num drr-wide">{fmtCount(c.queued)}</td>
                  </tr>
                  <tr className="drr-bar-row">
                    <td colSpan={4}>
                      <div className="drr-bar-line">
                        <div className="drr-track" aria-hidden="true" data-scale-max={r1(scaleMax)}>
                          <div
                            className="drr-bar"
                            style={{ width: pct(c.deficit), background: colorFor(i) }}
                            data-deficit={c.deficit}
                            data-end-deficit={c.deficit}
                            data-end-width={pct(c.deficit)}
                          />
                          <div className="drr-tick quantum" style={{ left: pct(c.quantum) }} />
                          <div className="drr-tick target" hidden>
                            <span className="drr-target-label" aria-hidden="true">
                              +q
                            </span>
                          </div>
                          {c.head_cost !== null && (
                            <div className="drr-tick head" style={{ left: pct(c.head_cost) }} />
                          )}
                        </div>
                        <span className="drr-state">
                          <span className="drr-narrow">
                            {fmtCount(c.queued)} queued
                            {c.head_cost !== null ? ` · head ${fmtCount(c.head_cost)}` : ''} ·{' '}
                          </span>
                          <span className="drr-state-text" data-end={stateText(c)}>
                            {stateText(c)}
                          </span>
                        </span>
                      </div>
                    </td>
                  </tr>
                </tbody>
              );
            })}
          </table>
          <p className="legend drr-bar-legend">
            <span>
              <span className="key-bar" aria-hidden="true" /> deficit
            </span>
            <span>
              <span className="key-tick" aria-hidden="true" /> quantum
            </span>
            <span>
              <span className="key-tick head" aria-hidden="true" /> head cost
            </span>
            <span>
              <span className="key-tick target" aria-hidden="true" /> deficit + quantum (while earning)
            </span>
            <span className="unit">units: uncached tokens</span>
          </p>
          <p className="drr-bulk-counter" aria-live="off" hidden />
        </div>
        <RulesPanel
          record={rec}
          folded={snapshot?.kind !== 'arbitration'}
          which={model.popNo !== null ? `decision ${fmtCount(model.popNo)}` : 'last pop'}
        />
        <div className="drr-account">
          <DecisionVisits
            record={rec}
            recordT={model.recordT}
            recordNo={model.recordNo}
            own={model.popNo !== null}
            stateAfter={model.stateAfter}
            closing={model.closing}
            recordKey={key}
            quantumOf={quantumOf}
            sandbox={snapshot?.kind === 'arbitration'}
            release={model.release}
          />
        </div>
      </div>
    </section>
  );
}

/**
 * What the account says before the first pop: in the sandbox, press Step; in a cluster run, how an
 * arrival reaches the ring under the modelled release (drr/release.ts): from v1.6 every arrival is
 * stored and drained through a DRR pop at once, up to v1.5 only once its class's workers are busy.
 */
export function noArbitrationText(sandbox: boolean, release: DynamoRelease): string {
  if (sandbox) return 'No arbitration yet: press Step to pop the next request.';
  if (storesEveryArrival(release))
    return `No arbitration yet: under Dynamo ${release} every arrival is stored in its class queue and drained at once through a DRR pop, even while a worker is free (a class with a queue limit of 0 keeps the direct path), so the first arrival makes the first pop.`;
  return `No arbitration yet: under Dynamo ${release} requests go straight to a worker while their pool has room; they wait in a class queue (and DRR picks among the classes) only once the workers are busy (prefill_busy_threshold).`;
}

function DecisionVisits({
  record,
  recordT,
  recordNo,
  own,
  stateAfter,
  closing,
  recordKey,
  quantumOf,
  sandbox,
  release,
}: {
  record: DrrModel['record'];
  recordT: number | null;
  recordNo: number | null;
  own: boolean;
  stateAfter: number | null;
  closing: string | null;
  recordKey: string;
  quantumOf: Map<string, number>;
  sandbox: boolean;
  release: DynamoRelease;
}) {
  // a cluster run folds the visit list under its summary (every arrival can make a pop, Dynamo v1.6);
  // opened, it stays open from pop to pop
  const [visitsOpen, setVisitsOpen] = useState(false);
  if (!record) {
    return <p className="empty drr-no-decision">{noArbitrationText(sandbox, release)}</p>;
  }
  const slots = visitSlots(record);
  const items: { key: string; slot: number; node: ReactElement }[] = record.visits.map((v, i) => {
    const tone = visitTone(v);
    return {
      key: `v${i}`,
      slot: slots.visits[i],
      node: (
        <li
          className={`drr-visit tone-${tone}`}
          data-outcome={v.outcome}
          data-class={v.class}
          data-visit-index={i}
        >
          <span className="drr-visit-n">{i + 1}</span>
          <span className="drr-visit-glyph" aria-hidden="true">
            {TONE_GLYPH[tone]}
          </span>
          <span className="drr-visit-phase">{PHASE_LABEL[v.phase]}</span>
          <span className="drr-visit-text">{visitText(v, quantumOf.get(v.class) ?? null)}</span>
        </li>
      ),
    };
  });
  if (slots.bulk !== null) {
    const rounds = record.bulk_rounds;
    items.push({
      key: 'bulk',
      slot: slots.bulk,
      node: (
        <li className="drr-visit drr-bulk" data-outcome="bulk">
          <span className="drr-visit-n">⋯</span>
          <span className="drr-visit-glyph" aria-hidden="true">
            ⟳
          </span>
          <span className="drr-visit-phase">bulk</span>
          <span className="drr-visit-text">
            no head affordable after one round: {fmtCount(rounds)} virtual round{rounds === 1 ? '' : 's'} of
            quantum for every class with a dispatchable head
          </span>
        </li>
      ),
    });
    items.sort((a, b) => a.slot - b.slot);
  }
  const visitList = (
    <ol className="drr-visits" aria-label="Class visits of the last arbitration">
      {items.map((x) => (
        <Fragment key={x.key}>{x.node}</Fragment>
      ))}
    </ol>
  );
  const which = whichPop(recordNo, own, stateAfter);
  return (
    // data-tour-part: a tour step that names "Last arbitration" brings this into sight (tour-reveal.ts)
    <div className="drr-decision" key={recordKey} data-tour-part="Last arbitration">
      <h3>{arbitrationTitle(recordT, own)}</h3>
      {which !== null && <p className="drr-which">{which}</p>}
      <p className="drr-summary">
        {record.summary || (record.chosen ? `picked ${record.chosen.id}` : 'nothing picked')}
      </p>
      {closing && <p className="drr-closing">{closing}</p>}
      {items.length > 0 &&
        (sandbox ? (
          visitList
        ) : (
          <details
            className="drr-visits-fold"
            open={visitsOpen}
            onToggle={(e) => setVisitsOpen(e.currentTarget.open)}
          >
            <summary>
              {record.visits.length} class visit{record.visits.length === 1 ? '' : 's'}
              {slots.bulk !== null ? ' and the bulk rounds' : ''}
            </summary>
            {visitList}
          </details>
        ))}
    </div>
  );
}

/**
 * The account's heading, one short line (a lecture's 1280×720 keeps the ring's panel compact): the
 * playhead's own pop (`own`, its record) or the run's latest pop, and when.
 */
export function arbitrationTitle(t: number | null, own: boolean): string {
  const at = t !== null ? ` at t = ${fmtNum(t)} s` : '';
  return own ? `Arbitration at the playhead${at}` : `Last arbitration${at}`;
}

/**
 * Which decision the account describes, under its heading: by its log number when the log shows
 * it, or as the latest pop up to the decision the state is after when the playhead stands inside an
 * event; null when neither is known.
 */
export function whichPop(no: number | null, own: boolean, stateAfter: number | null): string | null {
  if (own && no !== null) return `Decision ${fmtCount(no)}, the one at the playhead`;
  if (no !== null) return `Decision ${fmtCount(no)}`;
  if (stateAfter !== null) return `The latest pop up to decision ${fmtCount(stateAfter)}`;
  return null;
}

/** Rules that fired in a pop, and the one that decided it (the visit that took a request). */
export function firedRules(record: DrrPopRecord | null): { fired: Set<RuleId>; decisive: RuleId | null } {
  const fired = new Set<RuleId>();
  let decisive: RuleId | null = null;
  if (!record) return { fired, decisive };
  for (const v of record.visits) {
    const r = ruleOf(v);
    fired.add(r);
    if (v.outcome === 'granted' || v.outcome === 'affordable' || v.outcome === 'chosen') {
      decisive = r;
      fired.add('take');
    }
  }
  if (record.bulk_rounds !== null) fired.add('bulk');
  if (record.chosen) fired.add('cursor');
  if (record.carry_after) fired.add('carry');
  return { fired, decisive };
}

/**
 * Dynamo's visit rules and charging rules as short lines beside the ring. The rules the last pop used
 * are marked; while a pop animates, the rule of the phase on screen is highlighted (drr-animate.ts).
 */
function RulesPanel({
  record,
  folded,
  which = 'last pop',
}: {
  record: DrrPopRecord | null;
  folded: boolean;
  /** The pop the marks are for: the last one, or the decision at the playhead. */
  which?: string;
}) {
  const { fired, decisive } = firedRules(record);
  const item = (r: { id: RuleId; text: string }) => (
    <li
      key={r.id}
      data-rule={r.id}
      className={[fired.has(r.id) ? 'fired' : '', decisive === r.id ? 'decisive' : '']
        .filter(Boolean)
        .join(' ')}
    >
      <span className="drr-rule-mark" aria-hidden="true">
        {decisive === r.id ? '▶' : fired.has(r.id) ? '•' : ''}
      </span>
      {r.text}
    </li>
  );
  const body = (
    <>
      <h3>Each visit (from the cursor, once round the ring)</h3>
      <ol className="drr-rule-list">{VISIT_RULES.map(item)}</ol>
      <h3>Charging</h3>
      <ul className="drr-rule-list">{CHARGE_RULES.map(item)}</ul>
      <p className="legend drr-rules-key">
        <span>▶ decided the {which}</span>
        <span>• also applied</span>
        <span className="drr-rules-now">highlight = the rule on screen now</span>
      </p>
    </>
  );
  if (!folded)
    return (
      <section className="drr-rules" aria-label="DRR rules">
        {body}
      </section>
    );
  // A cluster run shows many views: the rules fold to one line naming the rule that decided the last pop.
  const last = [...VISIT_RULES, ...CHARGE_RULES].find((r) => r.id === decisive);
  return (
    <details className="drr-rules folded" aria-label="DRR rules">
      <summary>
        <span className="drr-rules-title">DRR rules</span>
        {last ? (
          <span className="drr-rules-last">
            {' '}
            · {which}: {last.text}
          </span>
        ) : null}
      </summary>
      {body}
    </details>
  );
}
