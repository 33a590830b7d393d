/**
 * The phone's compact header (below 900 px): a Menu button that unfolds, inside the sticky header,
 * what does not fit its two rows (speed, share, present, theme, help, the features' buttons) and a
 * row of shortcuts to the page's sections, each opening its fold and scrolling to it. In a window
 * both narrow and very short (under 600 × 340 px: 1280×720 at 300–400 % zoom) the scenario picker
 * and the clock go into it too (theme.css), and Menu is the `last` one, at the transport's row's end.
 */
import { useEffect, useRef } from 'react';
import { useUi } from '../../state/store';
import { refocusIfLost } from '../Modal';
import { type Fold, setFold, setMenu, usePhone } from './store';

/**
 * `place`: the header draws Menu in one of two places of the toolbar, so that the tab order follows
 * what is seen: `first`, right after the scenario picker (below 600 px, where they share the first
 * row), or `last`, after the transport and the clock (600–899 px, one row with Menu at its right end).
 * The other one is not displayed (theme.css).
 */
export function MenuButton({ place }: { place: 'first' | 'last' }) {
  const open = usePhone((s) => s.menu);
  return (
    <button
      type="button"
      className={`menu-button menu-${place}`}
      aria-expanded={open}
      aria-controls="phone-nav"
      onClick={() => setMenu(!open)}
      title="Speed, Share, Present, the features (Tour, Sweep, Compare, Export) and the page's sections; in a very short window the scenario picker and the clock too"
    >
      Menu{' '}
      <span aria-hidden="true" className="fold-mark">
        {open ? '▴' : '▾'}
      </span>
    </button>
  );
}

/**
 * Scroll so that `selector`'s top is just under the sticky header (the page's scroll-padding says how
 * far), and give it the focus: the menu's button that had it is hidden as the menu folds, and the
 * focus fell to the body (the next Tab started again from the page's top, far from the section).
 */
function goTo(selector: string, fold?: Fold): void {
  setMenu(false);
  if (fold) setFold(fold, true);
  // after the menu has folded and the panel unfolded
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      const section = document.querySelector<HTMLElement>(selector);
      if (!section) {
        refocusIfLost();
        return;
      }
      section.scrollIntoView({ block: 'start' });
      focusSection(section);
    }),
  );
}

/**
 * The section's heading button (a folding panel's), else the heading of its first view (Views) or its
 * own (Why #n), else the section itself, as a focus target. A heading, not the whole view: the DRR
 * ring's region is taller than a phone's screen, and its focus ring outlined all of it, no edge of it
 * in sight; the heading's ring is one line at the section's top. The next Tab goes on from there into
 * the view (its glossary buttons), and ← / → still move the playhead (they are the page's keys).
 */
function focusSection(section: HTMLElement): void {
  const first = section.querySelector<HTMLElement>('.fold-toggle, .views > [tabindex="0"]');
  if (first?.classList.contains('fold-toggle')) {
    first.focus({ preventScroll: true });
    return;
  }
  const heading = (first ?? section).querySelector<HTMLElement>('h2');
  const target = heading ?? first ?? section;
  if (!target.hasAttribute('tabindex')) {
    // focusable by script only, and only while it has the focus (a click on the heading later does not
    // take it)
    target.tabIndex = -1;
    target.addEventListener('blur', () => target.removeAttribute('tabindex'), { once: true });
  }
  target.focus({ preventScroll: true });
}

export function PhoneNav() {
  const selected = useUi((s) => s.selected);
  return (
    <nav id="phone-nav" className="phone-nav" aria-label="Sections">
      <span className="phone-nav-label">Go to</span>
      <button type="button" onClick={() => goTo('.column.center')}>
        Views
      </button>
      {selected !== null && (
        <button type="button" onClick={() => goTo('.explanation-panel')}>
          Why #{selected + 1}
        </button>
      )}
      <button type="button" onClick={() => goTo('#fold-log', 'log')}>
        Log
      </button>
      <button type="button" onClick={() => goTo('#fold-scenario', 'scenario')}>
        Scenario
      </button>
      <button type="button" onClick={() => goTo('#fold-editor', 'editor')}>
        YAML
      </button>
    </nav>
  );
}

/**
 * The header's behaviour on a phone: it publishes its height (`--topbar-h`, for the sections'
 * scroll margin), and the open menu closes after one of its actions, on a click elsewhere, or on
 * Escape (keys.ts).
 */
export function useTopbar() {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement;
    const ro = new ResizeObserver(() =>
      root.style.setProperty('--topbar-h', `${Math.round(el.offsetHeight)}px`),
    );
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  useEffect(() => {
    const onClick = (e: MouseEvent) => {
      if (!usePhone.getState().menu) return;
      const t = e.target instanceof Element ? e.target : null;
      const bar = ref.current;
      if (!t || !bar) return;
      if (!bar.contains(t)) setMenu(false);
      else if (t.closest('.share-button, .present-button, .icon-group button, .feature-bar button'))
        setMenu(false);
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, []);
  return ref;
}
