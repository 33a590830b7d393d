/**
 * Runs one pop's phases (drr-phases.ts) on the ring's DOM from a requestAnimationFrame loop: bar widths,
 * the deficit figures, the earn target tick, the bulk round counter, the rule that fires, the visit
 * being made, and last the cursor. Every frame writes the bar's width and its `data-deficit` together,
 * so the stable hooks stay true mid-step. Cancelling (or the end) puts back what React rendered.
 */
import { SPEEDS, useUi } from '../../state/store';
import { fmtCount } from './format';
import { frameAt, type Phase, totalMs } from './drr-phases';

/** Shortest average phase worth showing (ms); faster play shows the end states only. */
const MIN_PHASE_MS = 70;

export function motionAllowed(root: Element): boolean {
  if (globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return false;
  return !root.closest('[data-motion="off"]');
}

/** How much faster than natural the phases must run to fit between two decisions at the current speed. */
export function speedUp(phases: readonly Phase[]): number | null {
  const total = totalMs(phases);
  if (total <= 0) return null;
  const ui = useUi.getState();
  const budget = ui.playing ? (0.85 * 1000) / SPEEDS[ui.speedIndex] : Number.POSITIVE_INFINITY;
  const speed = Math.max(1, total / budget);
  return total / speed / Math.max(1, phases.length) < MIN_PHASE_MS ? null : speed;
}

function esc(name: string): string {
  return typeof CSS !== 'undefined' && CSS.escape ? CSS.escape(name) : name.replace(/["\\]/g, '\\$&');
}

export interface AnimationTargets {
  /** Bar position (CSS percentage) of a deficit on the shared scale. */
  pct: (v: number) => string;
  start: ReadonlyMap<string, number>;
  cursorFrom: number | null;
  cursorTo: number | null;
  /** Called when the phases have all run (not when cancelled). */
  onDone?: () => void;
}

/** Starts the animation; returns its cancel (which also restores the end state). */
/**
 * What a class's state line says at phase `at` of a pop: the phase that last moved it (earning,
 * paying, reset, frozen, short, bulk rounds), "waits for its visit" before its first phase, or null
 * (the end state's text) for a class the pop does not touch or whose phases are all over.
 */
export function stateAt(phases: readonly Phase[], at: number, cls: string): string | null {
  let last: Phase | null = null;
  let later = false;
  phases.forEach((p, i) => {
    if (!p.classes.includes(cls)) return;
    if (i <= at) last = p;
    else later = true;
  });
  if (at >= phases.length) return null;
  const p = last as Phase | null;
  if (!p) return later ? 'waits for its visit' : null;
  const k = p.classes.indexOf(cls);
  const from = Math.round(p.from[k] ?? 0);
  const to = Math.round(p.to[k] ?? 0);
  switch (p.kind) {
    case 'earn':
      return `earns its quantum: ${fmtCount(from)} → ${fmtCount(to)}`;
    case 'pay':
      return `pays ${fmtCount(from - to)} for its head`;
    case 'reset':
      return p.rule === 'take' ? 'queue left empty: deficit reset to 0' : 'empty: deficit reset to 0';
    case 'frozen':
      return 'head blocked: credit frozen';
    case 'short':
      return 'still short of its head';
    case 'bulk':
      return `bulk: ${fmtCount(p.rounds ?? 0)} virtual round${p.rounds === 1 ? '' : 's'}`;
    default:
      return null;
  }
}

export function animatePop(
  root: HTMLElement,
  phases: readonly Phase[],
  speed: number,
  t: AnimationTargets,
): () => void {
  const body = (c: string) => root.querySelector<HTMLElement>(`tbody[data-class="${esc(c)}"]`);
  const classes = [...t.start.keys()];
  const cursor = root.querySelector<SVGGElement>('.drr-cursor');
  const counter = root.querySelector<HTMLElement>('.drr-bulk-counter');
  root.dataset.animating = 'true';
  // until the cursor phase, the ring's centre ('next scan B') and the table's cursor and carry tags,
  // which React drew at the pop's end, are held back (views.css): they named the next class while
  // the arrow still pointed at the one being visited
  delete root.dataset.cursorMoved;
  if (cursor && t.cursorFrom !== null) {
    cursor.style.transition = 'none';
    cursor.style.transform = `rotate(${t.cursorFrom}deg)`;
  }
  let raf = 0;
  // The animation's own clock: it follows the page's, but never jumps over the end of a phase, so a
  // slow or busy page still shows each rule's end state (the quantum's peak, the paid deficit) for
  // at least one frame before the next phase starts.
  let last: number | null = null;
  let clock = 0;
  let phaseAt = 0;
  const ends: number[] = [];
  let acc = 0;
  for (const ph of phases) {
    acc += ph.ms / speed;
    ends.push(acc);
  }
  let shownPhase = -2;
  const draw = (frame: ReturnType<typeof frameAt>) => {
    for (const c of classes) {
      const tb = body(c);
      if (!tb) continue;
      const d = Math.max(0, frame.deficits.get(c) ?? 0);
      const bar = tb.querySelector<HTMLElement>('.drr-bar');
      if (bar) {
        bar.style.width = t.pct(d);
        bar.dataset.deficit = String(Math.round(d));
      }
      const fig = tb.querySelector<HTMLElement>('.drr-deficit');
      if (fig) fig.textContent = fmtCount(Math.round(d));
      const target = tb.querySelector<HTMLElement>('.drr-tick.target');
      if (target) {
        const on = frame.target?.cls === c;
        target.hidden = !on;
        if (on && frame.target) {
          const left = t.pct(frame.target.value);
          target.style.left = left;
          // the "+q" label sits on the track beside the tick, on the side with more room: never above
          // the track, where it covered the class's figures (tester p31, drr-burst pop 4)
          target.dataset.side = Number.parseFloat(left) > 50 ? 'left' : 'right';
        }
      }
    }
    if (frame.phase === shownPhase) return;
    shownPhase = frame.phase;
    const p = phases[frame.phase] as Phase | undefined;
    for (const c of classes) {
      const tb = body(c);
      if (!tb) continue;
      if (p?.classes.includes(c)) tb.dataset.phase = p.kind;
      else delete tb.dataset.phase;
      // the state text says what this class is doing at the phase on screen, not how the pop ends
      const text = tb.querySelector<HTMLElement>('.drr-state-text');
      if (text) text.textContent = stateAt(phases, frame.phase, c) ?? text.dataset.end ?? text.textContent;
    }
    for (const el of root.querySelectorAll<HTMLElement>('[data-rule]'))
      el.classList.toggle('current', !!p && el.dataset.rule === p.rule);
    // visits not yet reached are dimmed; bulk and cursor phases come after the visits before them
    let reached = -1;
    for (let i = 0; i <= Math.min(frame.phase, phases.length - 1); i++)
      reached = Math.max(reached, phases[i].visit);
    if (frame.phase >= phases.length) reached = Number.POSITIVE_INFINITY;
    for (const el of root.querySelectorAll<Element>('[data-visit-index]')) {
      const i = Number(el.getAttribute('data-visit-index'));
      el.classList.toggle('pending', i > reached);
      el.classList.toggle('current', !!p && p.visit === i);
      if (p && p.visit === i && el instanceof HTMLElement) keepInList(el);
    }
    const bulkItem = root.querySelector<HTMLElement>('.drr-visit.drr-bulk');
    if (bulkItem) {
      const bulkAt = phases.findIndex((x) => x.kind === 'bulk');
      bulkItem.classList.toggle('pending', bulkAt >= 0 && frame.phase < bulkAt);
      bulkItem.classList.toggle('current', p?.kind === 'bulk');
    }
    if (p?.kind === 'cursor') root.dataset.cursorMoved = 'true';
    if (cursor && p?.kind === 'cursor' && t.cursorTo !== null) {
      cursor.style.transition = '';
      cursor.style.transform = `rotate(${t.cursorTo}deg)`;
    }
  };
  const tick = (now: number) => {
    const dt = last === null ? 0 : now - last;
    last = now;
    let next = clock + dt;
    if (phaseAt < phases.length && next >= ends[phaseAt]) {
      // crossed the end of the phase on screen: draw that phase's end state first
      next = Math.max(clock, ends[phaseAt] - 1e-6);
      if (next === clock) next = ends[phaseAt];
      phaseAt++;
    }
    clock = next;
    const frame = frameAt(phases, t.start, clock, speed);
    draw(frame);
    if (counter) {
      const p = phases[frame.phase];
      counter.hidden = !(p?.kind === 'bulk');
      if (p?.kind === 'bulk')
        counter.textContent = `virtual round ${frame.round ?? 0} of ${fmtCount(p.rounds ?? 0)}`;
    }
    if (frame.phase < phases.length) raf = requestAnimationFrame(tick);
    else {
      finish();
      t.onDone?.();
    }
  };
  const finish = () => {
    cancelAnimationFrame(raf);
    delete root.dataset.animating;
    delete root.dataset.cursorMoved;
    for (const c of classes) {
      const tb = body(c);
      if (!tb) continue;
      delete tb.dataset.phase;
      const bar = tb.querySelector<HTMLElement>('.drr-bar');
      if (bar) {
        bar.style.width = bar.dataset.endWidth ?? bar.style.width;
        bar.dataset.deficit = bar.dataset.endDeficit ?? bar.dataset.deficit;
      }
      const fig = tb.querySelector<HTMLElement>('.drr-deficit');
      if (fig && fig.dataset.end !== undefined) fig.textContent = fig.dataset.end;
      const text = tb.querySelector<HTMLElement>('.drr-state-text');
      if (text && text.dataset.end !== undefined) text.textContent = text.dataset.end;
      const target = tb.querySelector<HTMLElement>('.drr-tick.target');
      if (target) target.hidden = true;
    }
    for (const el of root.querySelectorAll('[data-rule]')) el.classList.remove('current');
    for (const el of root.querySelectorAll('.pending, .drr-visit.current, [data-visit-index].current'))
      el.classList.remove('pending', 'current');
    if (counter) counter.hidden = true;
    // The cursor goes back to what React rendered last (its data-end-rotate), not to this pop's
    // target: this runs as the layout effect's cleanup after React has drawn the next state, and on a
    // jump (a seek, a tour step) no new pop animates to set it, so this pop's angle would stay.
    if (cursor) {
      const end = cursor.dataset.endRotate;
      cursor.style.transition = '';
      if (end !== undefined) cursor.style.transform = end;
      else if (t.cursorTo !== null) cursor.style.transform = `rotate(${t.cursorTo}deg)`;
    }
  };
  // the first frame is drawn at once, so nothing shows the end state before the animation starts
  draw(frameAt(phases, t.start, 0, speed));
  raf = requestAnimationFrame(tick);
  return finish;
}

/**
 * A capped visit list (a cluster run's account scrolls) shows the visit on screen: its own scroll
 * moves, never the page's.
 */
function keepInList(item: HTMLElement): void {
  const list = item.parentElement;
  if (!list || list.scrollHeight <= list.clientHeight) return;
  const top = item.offsetTop - list.offsetTop;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (top + item.offsetHeight > list.scrollTop + list.clientHeight)
    list.scrollTop = top + item.offsetHeight - list.clientHeight;
}
