/**
 * After a tour step has moved the simulation, bring what the step talks about into sight: the first
 * view its text names (by the view's own name, e.g. "DRR ring", "Client service"); on a phone, where the
 * page scrolls as one, at least the views when the text names none. On a phone the view's top lands
 * under the sticky header (its scroll-margin), so the tour card at the bottom leaves it readable.
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

export function revealStepView(text: string): void {
  // after the views have drawn the step's scenario
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      const views = [...document.querySelectorAll<HTMLElement>('.views > .view[aria-label]')];
      const phone = window.matchMedia(PHONE).matches;
      const i = firstNamed(
        text,
        views.map((v) => v.getAttribute('aria-label') ?? ''),
      );
      const named = i >= 0 ? views[i] : null;
      const target = named ?? (phone ? document.querySelector<HTMLElement>('.views') : null);
      target?.scrollIntoView({ block: phone ? 'start' : 'nearest' });
    }),
  );
}
