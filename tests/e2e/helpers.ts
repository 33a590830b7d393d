import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import type { SessionSnapshot } from '../../src/worker/session';

export const DEFAULT_TEXT = readFileSync('scenarios/default.yaml', 'utf8');
export const BURST_TEXT = readFileSync('scenarios/drr-burst.yaml', 'utf8');

/** A one-class, one-enqueue DRR script named `name`, with `description` lines after the name if given. */
export function tinyScript(name: string, description: string[] = []): string {
  return [
    `name: ${name}`,
    ...description,
    'policy:',
    '  policy_classes:',
    '    - {name: A, quantum: 10}',
    'ops:',
    '  - enqueue: {id: a0, class: A, cost: 3}',
    '',
  ].join('\n');
}

/** Open the app (optionally with a fragment) and wait until a run is loaded. */
export async function open(page: Page, hash = '', opts: { editor?: 'monaco' | 'plain' } = {}): Promise<void> {
  await page.goto(`./${opts.editor === 'plain' ? '?editor=plain' : ''}${hash}`);
  await page.waitForFunction(
    () => typeof window.fairground?.state === 'function' && window.fairground.state().kind !== null,
  );
}

/**
 * Open the app with the plain-text editor (`?editor=plain`), for specs about the views, runs and
 * links, not the editor. Monaco's start-up is about 1.5 s of main-thread work per page: three view
 * specs (19 tests) took 149 CPU-seconds with Monaco, 129 without. Tests of the editor and of the
 * page as a user first gets it keep Monaco (editor-problems, editor-typing, playground, page-safety,
 * first-use, policy-versions, page-chrome's size and problem-list tests, and the rest that call `open`).
 */
export async function openPlain(page: Page, hash = ''): Promise<void> {
  await open(page, hash, { editor: 'plain' });
}

export async function playhead(page: Page): Promise<number> {
  return page.evaluate(() => window.fairground.state().decisionCount);
}

export async function snapshot(page: Page): Promise<SessionSnapshot> {
  return page.evaluate(() => window.fairground.snapshot());
}

export async function pickScenario(page: Page, id: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Scenario' }).selectOption(id);
  await expect.poll(() => page.evaluate(() => window.fairground.state().decisionCount)).toBe(0);
}

/** Wait until Monaco (or the textarea fallback) is mounted for an editor. */
export async function editorReady(page: Page, which: 'policy' | 'scenario'): Promise<string> {
  await expect
    .poll(() => page.evaluate((w) => window.fairground.editor.mode(w), which), { timeout: 20_000 })
    .not.toBe('loading');
  return page.evaluate((w) => window.fairground.editor.mode(w), which);
}

/** Select everything in an editor and paste `text` over it, as a user would (a real paste event). */
export async function pasteInto(page: Page, regionName: string, text: string): Promise<void> {
  const region = page.getByRole('region', { name: regionName });
  const monaco = region.locator('.monaco-editor');
  // Near the top left of the text (after a long paste the text's own box lies mostly above the view,
  // under Monaco's scroll shadow, so its centre is not clickable).
  if (await monaco.count()) await monaco.click({ position: { x: 80, y: 30 } });
  else await region.locator('textarea').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.evaluate((t) => {
    const el = document.activeElement as HTMLElement;
    const dt = new DataTransfer();
    dt.setData('text/plain', t);
    const handled = !el.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }),
    );
    if (!handled && el instanceof HTMLTextAreaElement) {
      el.value = t;
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }
  }, text);
}

/**
 * Visible text within `root` drawn smaller than `min` px: HTML by its computed size, SVG text by its
 * size times the drawing's scale on screen. `skip` leaves out whatever matches it or sits inside it.
 */
export async function smallText(page: Page, root: string, min: number, skip = ''): Promise<string[]> {
  return page.evaluate(
    ([sel, least, extra]) => {
      const out: string[] = [];
      const ignored = `.vh, title, desc, [hidden]${extra ? `, ${extra}` : ''}`;
      for (const scope of document.querySelectorAll(sel))
        for (const el of scope.querySelectorAll<HTMLElement | SVGElement>('*')) {
          const own = [...el.childNodes].some((n) => n.nodeType === 3 && (n.textContent ?? '').trim() !== '');
          if (!own || el.closest(ignored)) continue;
          const r = el.getBoundingClientRect();
          if (r.width === 0 || r.height === 0) continue;
          let size = Number.parseFloat(getComputedStyle(el).fontSize);
          if (el instanceof SVGElement) {
            const m = el.ownerSVGElement?.getScreenCTM();
            if (m) size *= Math.hypot(m.a, m.b);
          }
          if (size < least - 0.01)
            out.push(
              `${el.tagName}.${el.getAttribute('class') ?? ''} "${(el.textContent ?? '').trim().slice(0, 30)}" ${size.toFixed(1)}px`,
            );
        }
      return out;
    },
    [root, min, skip] as const,
  );
}

/**
 * Text that collides within each SVG under `root`: pairs of visible <text> boxes (as drawn on screen,
 * rotated titles included) that overlap by more than `slack` px, and text that pokes out of its SVG.
 * Each entry names the texts, so a failure says what sits on what.
 */
export async function textCollisions(page: Page, root: string, slack = 1): Promise<string[]> {
  return page.evaluate(
    ([sel, s]) => {
      const out: string[] = [];
      for (const svg of document.querySelectorAll<SVGSVGElement>(`${sel} svg`)) {
        const box = svg.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) continue;
        const texts = [...svg.querySelectorAll<SVGTextElement>('text')]
          .filter((t) => (t.textContent ?? '').trim() !== '' && !t.closest('[hidden], title, desc'))
          .map((t) => ({ text: (t.textContent ?? '').trim(), r: t.getBoundingClientRect() }))
          .filter((t) => t.r.width > 0 && t.r.height > 0);
        for (const t of texts)
          if (
            t.r.left < box.left - s ||
            t.r.right > box.right + s ||
            t.r.top < box.top - s ||
            t.r.bottom > box.bottom + s
          )
            out.push(`"${t.text}" outside its SVG`);
        for (let i = 0; i < texts.length; i++)
          for (let j = i + 1; j < texts.length; j++) {
            const a = texts[i].r;
            const b = texts[j].r;
            const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
            const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
            if (w > s && h > s) out.push(`"${texts[i].text}" overlaps "${texts[j].text}"`);
          }
      }
      return out;
    },
    [root, slack] as const,
  );
}

/**
 * Text under `others` that the box of `subject` overlaps by more than `slack` px, measured in the
 * first animation frame in which `subject` is drawn (not inside anything hidden, a box larger than
 * 0): for labels that only show during an animation. Each text node is measured by its own glyph
 * box (a Range), so a wide table cell is only as large as its figures. Waits up to `timeout` ms.
 */
export async function overlapsWhenShown(
  page: Page,
  subject: string,
  others: string,
  slack = 0,
  timeout = 10_000,
): Promise<string[]> {
  const handle = await page.waitForFunction(
    ([sel, other, s]) => {
      const shown = [...document.querySelectorAll<HTMLElement>(sel)].filter((el) => {
        const r = el.getBoundingClientRect();
        return !el.closest('[hidden]') && r.width > 0 && r.height > 0;
      });
      if (shown.length === 0) return null;
      const out: string[] = [];
      for (const el of shown) {
        const a = el.getBoundingClientRect();
        for (const scope of document.querySelectorAll(other)) {
          const walk = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
          for (let n = walk.nextNode(); n; n = walk.nextNode()) {
            const text = (n.textContent ?? '').trim();
            if (text === '' || n.parentElement?.closest('[hidden]') || n.parentElement === el) continue;
            const range = document.createRange();
            range.selectNodeContents(n);
            for (const b of range.getClientRects()) {
              const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
              const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
              if (w > s && h > s)
                out.push(
                  `"${(el.textContent ?? '').trim()}" overlaps "${text}" by ${w.toFixed(1)} × ${h.toFixed(1)} px`,
                );
            }
          }
        }
      }
      return out;
    },
    [subject, others, slack] as const,
    { polling: 'raf', timeout },
  );
  return (await handle.jsonValue()) as string[];
}

/**
 * Resize the window, as a reader does, and wait until the page has laid itself out again: the new
 * size reported, then the page's extent and the views' charts unchanged over two animation frames
 * (the charts re-measure with a ResizeObserver and redraw a frame or two later). A chart in a closed
 * <details> (Workers' radix trees) is not observed while hidden and keeps the width it had when last
 * shown until it is opened: each is opened for two frames and closed again, so it has the width a
 * page opened at this size gives it (text checks still look at it as a fresh page's would be).
 */
export async function resizeTo(page: Page, size: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(size);
  await page.waitForFunction(([w, h]) => window.innerWidth === w && window.innerHeight === h, [
    size.width,
    size.height,
  ] as const);
  await page.evaluate(async () => {
    const frame = () => new Promise((done) => requestAnimationFrame(() => done(null)));
    const folded = [...document.querySelectorAll('.views details:not([open]) .radix-svg')].map(
      (svg) => svg.closest('details') as HTMLDetailsElement,
    );
    for (const d of folded) d.open = true;
    await frame();
    await frame();
    for (const d of folded) d.open = false;
    const shape = () => {
      const v = document.querySelector('.views')?.getBoundingClientRect();
      const root = document.documentElement;
      const charts = [...document.querySelectorAll('.views svg')].map(
        (s) => `${s.getAttribute('width')}/${s.getAttribute('viewBox')}`,
      );
      return [root.scrollWidth, root.scrollHeight, v?.width, v?.height, charts.join(' ')].join();
    };
    let last = shape();
    for (let i = 0, same = 0; i < 120 && same < 2; i++) {
      await frame();
      const now = shape();
      same = now === last ? same + 1 : 0;
      last = now;
    }
  });
}

/** Open the Import dialog the way a person does (Export → Import a trace or BLIS spec…); returns it. */
export async function openImport(page: Page) {
  await page.getByRole('button', { name: 'Export' }).click();
  await page
    .getByRole('dialog', { name: 'Export' })
    .getByRole('button', { name: 'Import a trace or BLIS spec…' })
    .click();
  return page.getByRole('dialog', { name: 'Import' });
}
