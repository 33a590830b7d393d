/**
 * After a tour step has moved the simulation, bring what the step talks about into sight: the first
 * view its text names (by the view's own name, e.g. "DRR ring", "Client service"), or the first part
 * of a view it names (an element marked `data-tour-part`, e.g. the ring's "Last arbitration"); on a phone, where the
 * page scrolls as one, at least the views when the text names none. On a phone the view's top lands
 * under the sticky header (the page's scroll-padding), so the tour card at the bottom leaves it readable.
 */
const PHONE = '(max-width: 899px)';

/** Which of `names` the text names first (case and whole words matter: "Workers", not "workers"), or -1. */
export function firstNamed(text: string, names: readonly string[]): number {
  let best = -1;
  let at = Number.POSITIVE_INFINITY;
  names.forEach((name, i) => {
    if (name === '') return;
    const re = new RegExp(`(^|[^A-Za-z])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z])`);
    const m = re.exec(text);
    if (m && m.index < at) {
      at = m.index;
      best = i;
    }
  });
  return best;
}

/** The nearest ancestor that scrolls vertically, or null for the page itself. */
function scroller(el: HTMLElement): HTMLElement | null {
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    const oy = getComputedStyle(p).overflowY;
    if ((oy === 'auto' || oy === 'scroll') && p.scrollHeight > p.clientHeight) return p;
  }
  return null;
}

/**
 * Scroll so `view` sits in the band the tour card leaves free: below the sticky header, above the
 * card where the card is over the view's column (beside it otherwise). A view taller than the band
 * shows its chart (its first `.chart`, else its first svg) centred in the band, so the chart the
 * step names is what is read, not what the card hides.
 */
export function placeInBand(
  view: HTMLElement,
  card: HTMLElement | null,
  opts: { part?: boolean } = {},
): void {
  unpinViews();
  const box = scroller(view);
  const vr = view.getBoundingClientRect();
  const header = document.querySelector<HTMLElement>('.topbar');
  const hb =
    header && getComputedStyle(header).position === 'sticky' ? header.getBoundingClientRect().bottom : 0;
  // where a pinned heading sticks: under the sticky header (the page scrolls), or at the top of the
  // scrolling column
  const pinAt = box ? box.getBoundingClientRect().top : hb;
  let top = Math.max(hb, box ? box.getBoundingClientRect().top : 0) + 8;
  let bottom = (box ? box.getBoundingClientRect().bottom : window.innerHeight) - 8;
  top = Math.max(top, 0);
  bottom = Math.min(bottom, window.innerHeight - 8);
  if (card) {
    const cr = card.getBoundingClientRect();
    const beside = cr.right <= vr.left || cr.left >= vr.right;
    if (!beside) bottom = Math.min(bottom, cr.top - 8);
  }
  let band = bottom - top;
  if (band <= 0) return;
  let target: DOMRect = vr;
  // a part of a view (a `data-tour-part`) taller than the band shows its top, its heading first
  if (vr.height > band && !opts.part) {
    const chart = view.querySelector<HTMLElement>('.chart') ?? view.querySelector<SVGElement>('svg');
    target = (chart ?? view).getBoundingClientRect();
    // the view's heading would scroll away above the chart: it stays pinned at the band's top
    // (views.css), so the reader still sees which view the chart belongs to, and the chart is
    // centred in what the heading leaves
    const heading = view.querySelector<HTMLElement>(':scope > h2');
    if (heading && chart) {
      view.setAttribute(PIN, '');
      view.style.setProperty(
        '--tour-pin-top',
        `${Math.round(pinAt - (box ? box.getBoundingClientRect().top : 0))}px`,
      );
      top = Math.max(top, pinAt + heading.getBoundingClientRect().height + 4);
      band = bottom - top;
      if (band <= 0) return;
    }
  }
  // fits: its top just under the header; too tall: its centre in the band's centre
  // a part is brought into the band with the least scroll (already whole in it: none; below it: its
  // foot just above the card, so what it sits under, the ring's table, stays in sight), its top first
  // when it is taller than the band
  const delta = opts.part
    ? target.height > band || target.top < top
      ? target.top - top
      : Math.max(0, target.bottom - bottom)
    : target.height <= band
      ? target.top - top
      : target.top + target.height / 2 - (top + band / 2);
  if (Math.abs(delta) < 1) return;
  if (box) box.scrollBy({ top: delta, behavior: 'instant' });
  else window.scrollBy({ top: delta, behavior: 'instant' });
}

/** Marks the view whose heading a tour step keeps pinned (views.css). */
const PIN = 'data-tour-pin';

/** Unpin every view's heading (a new step, or the tour closed). */
export function unpinViews(): void {
  for (const v of document.querySelectorAll<HTMLElement>(`[${PIN}]`)) v.removeAttribute(PIN);
}

export function revealStepView(text: string): void {
  const reveal = () => {
    const views = [...document.querySelectorAll<HTMLElement>('.views > .view[aria-label]')];
    // parts of the views a step may name (the ring's "Last arbitration"): after the views, so a view
    // and a part named at the same place go to the view
    const parts = [...document.querySelectorAll<HTMLElement>('.views [data-tour-part]')];
    const phone = window.matchMedia(PHONE).matches;
    const i = firstNamed(text, [
      ...views.map((v) => v.getAttribute('aria-label') ?? ''),
      ...parts.map((p) => p.dataset.tourPart ?? ''),
    ]);
    const card = document.querySelector<HTMLElement>('.tour-panel');
    // a part: on a 480 px high projector the card covered the ring's "Last arbitration" that the DRR
    // lesson's step 2 points at, since the step names no view and nothing was brought into sight
    if (i >= views.length) placeInBand(parts[i - views.length], card, { part: true });
    else if (i >= 0) placeInBand(views[i], card);
    else unpinViews();
    if (i < 0 && phone) document.querySelector<HTMLElement>('.views')?.scrollIntoView({ block: 'start' });
  };
  // after the views have drawn the step's scenario, and once more when late views (a chart's data,
  // the Algorithm steps panel) have changed the layout above the named one
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      reveal();
      setTimeout(reveal, 400);
    }),
  );
}
