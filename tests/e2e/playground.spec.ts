import { expect, test } from '@playwright/test';
import {
  DEFAULT_TEXT,
  editorReady,
  open,
  pasteInto,
  pickScenario,
  playhead,
  snapshot,
  tinyScript,
} from './helpers';

test.describe.configure({ mode: 'parallel' });

test('Dynamo burst: step eight times, the pops leave in the order a0 a1 a2 b0 b1 b2 a3 b3, deficits in the ring', async ({
  page,
}) => {
  await open(page);
  await pickScenario(page, 'drr-burst');
  await expect(page.getByRole('heading', { name: 'Dynamo burst' })).toBeVisible();
  // The sandbox shows the ring, the queues and the log, not the cluster views.
  await expect(page.getByRole('region', { name: 'Workers' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Class queues' })).toBeVisible();
  // the script preloads its eight requests: they wait in the class queues before step 1
  await expect(page.getByRole('region', { name: 'Class queues' })).toHaveAttribute('data-queued', '8');

  const step = page.getByRole('button', { name: 'Step' });
  for (let i = 0; i < 4; i++) await step.click();
  await expect.poll(() => playhead(page)).toBe(4);
  const ring = page.getByRole('region', { name: 'DRR ring' });
  await expect(ring.locator('[data-class="A"][data-deficit]').first()).toHaveAttribute('data-deficit', '1');
  await expect(ring.locator('[data-class="B"][data-deficit]').first()).toHaveAttribute('data-deficit', '7');

  for (let i = 0; i < 4; i++) await step.click();
  await expect.poll(() => playhead(page)).toBe(8);
  const lines = await page
    .getByRole('log', { name: 'Decision log' })
    .locator('li .summary')
    .allTextContents();
  const pops = lines
    .reverse()
    .map((l) => /^pop (\w+) from/.exec(l)?.[1])
    .filter(Boolean);
  expect(pops).toEqual(['a0', 'a1', 'a2', 'b0', 'b1', 'b2', 'a3', 'b3']);
  const drr = (await snapshot(page)).drr as { classes: { name: string; deficit: number }[] };
  expect(drr.classes.map((c) => c.deficit)).toEqual([0, 0]);

  // Selecting a line marks it (and would pause a playing run); the log is one tab stop with arrows.
  const line = page.getByRole('log', { name: 'Decision log' }).locator('li', { hasText: 'pop b0 from B' });
  await line.click();
  await expect(line).toHaveAttribute('aria-current', 'true');
  await page.getByRole('log', { name: 'Decision log' }).focus();
  await page.keyboard.press('ArrowDown');
  const older = page.getByRole('log', { name: 'Decision log' }).locator('li', { hasText: 'pop a2 from A' });
  await expect(older).toHaveAttribute('aria-current', 'true');
  // the playhead follows the selection (tester F9): it is now just after a2, so b0 is not yet in the log
  await expect.poll(() => playhead(page)).toBe(3);
  await expect(line).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible();
});

test('a broken policy gets a marker at its line, the text is kept (and survives a reload); fixing it restarts the run', async ({
  page,
}) => {
  await open(page);
  await pickScenario(page, 'drr-burst');
  await page.getByRole('button', { name: 'Step' }).click();
  await page.getByRole('button', { name: 'Step' }).click();
  await expect.poll(() => playhead(page)).toBe(2);
  await page.getByRole('tab', { name: 'Policy' }).click();
  const mode = await editorReady(page, 'policy');
  expect(mode).toBe('monaco');
  const broken = 'policy_classes:\n  - {name: A, quantum: 10}\n  - {name: B, quantum: -4}\n';
  const region = page.getByRole('region', { name: 'Policy editor' });
  await pasteInto(page, 'Policy editor', broken);
  await expect
    .poll(() =>
      page.evaluate(() => window.fairground.editor.markers('policy').filter((m) => m.owner === 'fairground')),
    )
    .toEqual([expect.objectContaining({ line: 3, owner: 'fairground' })]);
  expect(await page.evaluate(() => window.fairground.editor.text('policy'))).toBe(broken);
  // The run keeps the last valid version.
  expect(await playhead(page)).toBe(2);
  await expect(region.getByRole('status')).toContainText('3:');

  await page.reload();
  await page.waitForFunction(() => window.fairground?.state().kind === 'arbitration');
  await page.getByRole('tab', { name: 'Policy' }).click();
  await editorReady(page, 'policy');
  await expect.poll(() => page.evaluate(() => window.fairground.editor.text('policy'))).toBe(broken);
  await expect
    .poll(() =>
      page.evaluate(
        () => window.fairground.editor.markers('policy').filter((m) => m.owner === 'fairground').length,
      ),
    )
    .toBe(1);

  await page.getByRole('button', { name: 'Step' }).click();
  await pasteInto(
    page,
    'Policy editor',
    'policy_classes:\n  - {name: A, quantum: 10}\n  - {name: B, quantum: 4}\n',
  );
  await expect
    .poll(async () => ((await snapshot(page)).drr as { classes: { quantum: number }[] }).classes[1].quantum)
    .toBe(4);
  expect(await playhead(page)).toBe(0);
  expect(
    await page.evaluate(() =>
      window.fairground.editor.markers('policy').filter((m) => m.owner === 'fairground'),
    ),
  ).toEqual([]);
});

test('Share puts the run in the fragment; the link reproduces the same snapshot', async ({
  page,
  context,
}) => {
  await open(page);
  await page.evaluate((t) => window.fairground.load(t), DEFAULT_TEXT);
  await page.evaluate(() => window.fairground.step(137));
  const before = await snapshot(page);
  await page.getByRole('button', { name: 'Share' }).click();
  const field = page.getByRole('textbox', { name: 'Share link' });
  await expect(field).toHaveValue(/#s=\d+\./);
  const link = await field.inputValue();
  expect(new URL(page.url()).hash).toBe(new URL(link).hash);
  await page.keyboard.press('Escape');
  await expect(field).toHaveCount(0);

  const other = await context.newPage();
  await other.goto(link);
  await expect.poll(() => other.evaluate(() => window.fairground?.state().decisionCount)).toBe(137);
  expect(await snapshot(other)).toEqual(before);
  await expect(other.getByRole('alert').filter({ hasText: 'shared link' })).toBeVisible();
});

test('bad share links explain themselves and fall back to the default scenario', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  for (const [hash, why] of [
    ['#s=1.not*base64', /malformed/],
    ['#s=1.AAAA', /damaged|truncated/],
    ['#s=7.AAAA', /newer Fairground/],
    [`#s=1.${'A'.repeat(70_000)}`, /too long/],
  ] as const) {
    await page.goto(`./${hash}`);
    await expect(page.getByRole('alert').filter({ hasText: why })).toContainText('default scenario');
    await expect.poll(() => page.evaluate(() => window.fairground.state().kind)).toBe('cluster');
    await expect(page.getByRole('combobox', { name: 'Scenario' })).toHaveValue('default');
  }
  expect(errors).toEqual([]);
});

test('a link pasted into an open tab is the one opened, whatever the address holds when its event runs', async ({
  page,
}) => {
  await page.goto('./');
  await expect.poll(() => page.evaluate(() => window.fairground?.state().kind)).toBe('cluster');
  // The live address may rewrite the address bar between a pasted link's commit and its hashchange
  // event (CI saw it open the tab's own link instead of refusing a bad one): the event's URL decides.
  await page.evaluate(() => {
    const bad = `${location.pathname}#s=7.AAAA`;
    window.dispatchEvent(
      new HashChangeEvent('hashchange', { oldURL: location.href, newURL: new URL(bad, location.href).href }),
    );
  });
  await expect(page.getByRole('alert').filter({ hasText: /newer Fairground/ })).toContainText(
    'default scenario',
  );
});

test('scrubbing the timeline back and forth lands on the same states as a straight run', async ({ page }) => {
  await open(page);
  const straight = await page.evaluate(async (text) => {
    await window.fairground.load(text);
    await window.fairground.step(120);
    const at120 = await window.fairground.snapshot();
    await window.fairground.step(280);
    const at400 = await window.fairground.snapshot();
    return { at120, at400 };
  }, DEFAULT_TEXT);
  const timeline = page.getByRole('slider', { name: 'Timeline' });
  await timeline.fill('120');
  await expect.poll(() => playhead(page)).toBe(120);
  expect(await snapshot(page)).toEqual(straight.at120);
  await timeline.fill('400');
  await expect.poll(() => playhead(page)).toBe(400);
  expect(await snapshot(page)).toEqual(straight.at400);
  await timeline.focus();
  await page.keyboard.press('Home');
  await expect.poll(() => playhead(page)).toBe(0);
});

test('a seek back restarts from a restore point taken while the run went on, and lands as a straight run', async ({
  page,
}) => {
  await open(page);
  const straight = await page.evaluate(async (text) => {
    await window.fairground.load(text);
    // step in slices, as playing does: the worker takes restore points between slices
    const slices = async (n: number, size: number) => {
      for (let i = 0; i < n; i++) {
        await window.fairground.step(size);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    await slices(10, 100);
    const at1000 = await window.fairground.snapshot();
    await slices(6, 150);
    return { at1000, end: await window.fairground.snapshot() };
  }, DEFAULT_TEXT);
  const before = await page.evaluate(() => window.fairground.restorePoints());
  expect(before.decisions.filter((d) => d > 0 && d < 1000).length).toBeGreaterThan(0);
  const timeline = page.getByRole('slider', { name: 'Timeline' });
  await timeline.fill('1000');
  await expect.poll(() => playhead(page)).toBe(1000);
  expect(await snapshot(page)).toEqual(straight.at1000);
  const after = await page.evaluate(() => window.fairground.restorePoints());
  expect(after.lastSeekFrom).toBeGreaterThan(0);
  expect(after.lastSeekFrom).toBeLessThanOrEqual(1000);
  await timeline.fill('1900');
  await expect.poll(() => playhead(page)).toBe(1900);
  expect(await snapshot(page)).toEqual(straight.end);
});

test('keyboard only: Tab reaches every control, each with a name; shortcuts and the help overlay', async ({
  page,
}) => {
  await open(page);
  const seen = new Set<string>();
  const unnamed: string[] = [];
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const info = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const byId = (ids: string | null) =>
        (ids ?? '')
          .split(/\s+/)
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' ')
          .trim();
      const name =
        el.getAttribute('aria-label') ||
        byId(el.getAttribute('aria-labelledby')) ||
        (el as HTMLInputElement).labels?.[0]?.textContent?.trim() ||
        el.textContent?.trim() ||
        '';
      return { tag: el.tagName, name };
    });
    if (!info) continue;
    if (!info.name) unnamed.push(info.tag);
    seen.add(info.name);
  }
  expect(unnamed).toEqual([]);
  for (const name of [
    'Scenario',
    'Play',
    'Step',
    'Reset',
    'Speed',
    'Share',
    'Dark theme',
    'Keyboard shortcuts',
    'Timeline',
    'Policy',
    'Decision log',
  ])
    expect([...seen], name).toContain(name);

  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await expect(help).toContainText('Play / Pause');
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);

  await page.keyboard.press('ArrowRight');
  await expect.poll(() => playhead(page)).toBe(1);
  await page.keyboard.press('r');
  await expect.poll(() => playhead(page)).toBe(0);

  // A focused slider keeps its arrows but not the letters: P still toggles presentation mode there.
  const timeline = page.getByRole('slider', { name: 'Timeline' });
  await timeline.focus();
  await page.keyboard.press('p');
  await expect(page.locator('.app')).toHaveAttribute('data-presenting', 'on');
  await page.keyboard.press('p');
  await expect(page.locator('.app')).toHaveAttribute('data-presenting', 'off');
  // …and nothing fires while typing in a text field
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  await page.getByRole('textbox', { name: 'B label' }).fill('pr');
  await expect(page.getByRole('textbox', { name: 'B label' })).toHaveValue('pr');
  await page.keyboard.press('Escape');
  await expect(page.locator('.app')).toHaveAttribute('data-presenting', 'off');
});

test('every dialog keeps Tab inside it while open, and Escape gives the focus back to its opener', async ({
  page,
}) => {
  await open(page);
  /** Where the focus is: inside the open dialog, on the page behind it, or nowhere (the browser's own UI). */
  const focusPlace = () =>
    page.evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return 'none';
      return el.closest('dialog[open]') ? 'dialog' : `page: ${el.tagName} ${el.textContent?.slice(0, 30)}`;
    });
  const cases: { opener: string; dialog: string; via?: string }[] = [
    { opener: 'Compare', dialog: 'Compare' },
    { opener: 'Export', dialog: 'Export' },
    { opener: 'Export', dialog: 'Import', via: 'Import a trace or BLIS spec…' },
    { opener: 'Sweep', dialog: 'Sweep' },
    { opener: 'Share', dialog: 'Share link' },
    { opener: 'Keyboard shortcuts', dialog: 'Keyboard shortcuts' },
  ];
  for (const c of cases) {
    const opener = page.getByRole('button', { name: c.opener, exact: true });
    await opener.focus();
    await page.keyboard.press('Enter');
    if (c.via) await page.getByRole('button', { name: c.via }).click();
    const dialog = page.getByRole('dialog', { name: c.dialog });
    await expect(dialog).toBeVisible();
    // the first stop is inside, and 30 presses of Tab never reach the page behind it
    expect(await focusPlace(), c.dialog).toBe('dialog');
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab');
      expect(['dialog', 'none'], `${c.dialog}: Tab ${i + 1}`).toContain(await focusPlace());
    }
    await page.keyboard.press('Shift+Tab');
    expect(['dialog', 'none']).toContain(await focusPlace());
    // a shortcut does not reach the run behind the dialog
    const at = await playhead(page);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(opener, c.dialog).toBeFocused();
    expect(await playhead(page)).toBe(at);
  }
});

test('the theme toggle switches and persists; descriptions render as text', async ({ page }) => {
  await open(page);
  const toggle = page.getByRole('button', { name: 'Dark theme' });
  const before = await page.evaluate(() => document.documentElement.dataset.theme);
  await toggle.click();
  const after = await page.evaluate(() => document.documentElement.dataset.theme);
  expect(after).not.toBe(before);
  await page.reload();
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(after);

  const injected = tinyScript('Injected', ['description: "<img src=x onerror=window.pwned=1> **bold**"']);
  await page.evaluate((t) => window.fairground.load(t), injected);
  await expect(page.getByRole('heading', { name: 'Injected' })).toBeVisible();
  await expect(page.locator('.prose strong')).toHaveText('bold');
  expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
  expect(await page.locator('.prose img').count()).toBe(0);
});

test('a reload that races the address bar is still this tab’s own: the theme just picked stays', async ({
  page,
}) => {
  await open(page);
  const toggle = page.getByRole('button', { name: 'Dark theme' });
  await page.getByRole('button', { name: 'Step' }).click();
  await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#s=/);
  const older = await page.evaluate(() => location.hash);
  const before = await page.evaluate(() => document.documentElement.dataset.theme);
  await toggle.click();
  const after = await page.evaluate(() => document.documentElement.dataset.theme);
  expect(after).not.toBe(before);
  await expect.poll(() => page.evaluate(() => location.hash)).not.toBe(older);
  // the reload was asked for while the address still held the state before the toggle
  await page.evaluate((h) => history.replaceState(null, '', h), older);
  await page.reload();
  await page.waitForFunction(() => window.fairground?.state().kind !== null);
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(after);
  await expect(page.getByRole('alert').filter({ hasText: 'shared link' })).toHaveCount(0);
});

test('Previous decision (button and ←) steps back one decision, exactly as a straight run', async ({
  page,
}) => {
  await open(page);
  const straight = await page.evaluate(async (text) => {
    await window.fairground.load(text);
    await window.fairground.step(40);
    const at40 = await window.fairground.snapshot();
    await window.fairground.step(1);
    const at41 = await window.fairground.snapshot();
    await window.fairground.step(1);
    return { at40, at41 };
  }, DEFAULT_TEXT);
  await expect.poll(() => playhead(page)).toBe(42);
  const back = page.getByRole('button', { name: 'Previous decision' });
  await back.click();
  await expect.poll(() => playhead(page)).toBe(41);
  expect(await snapshot(page)).toEqual(straight.at41);
  await page.locator('body').click({ position: { x: 5, y: 300 } });
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => playhead(page)).toBe(40);
  expect(await snapshot(page)).toEqual(straight.at40);
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect.poll(() => playhead(page)).toBe(0);
  await expect(back).toBeDisabled();
});

test('a click on a time chart seeks the run to that simulated time', async ({ page }) => {
  await open(page);
  await page.evaluate(async (text) => {
    await window.fairground.load(text);
    await window.fairground.step(900);
  }, DEFAULT_TEXT);
  const before = await page.evaluate(() => window.fairground.state());
  // every time chart takes the click: service curves, guarantees, figures
  for (const region of ['Client service', 'Guarantees', 'Figures'])
    await expect(page.getByRole('region', { name: region }).locator('svg.seekable').first()).toBeAttached();
  const hit = page.getByRole('region', { name: 'Figures' }).locator('svg.seekable').first();
  await hit.scrollIntoViewIfNeeded();
  const box = await hit.boundingBox();
  if (!box) throw new Error('no chart to click');
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height * 0.4);
  const label = await page.locator('.seek-guide text').first().textContent();
  const target = Number(/t = ([\d.]+) s/.exec(label ?? '')?.[1]);
  expect(target).toBeGreaterThan(0);
  expect(target).toBeLessThan(before.simTime);
  await page.mouse.click(box.x + box.width * 0.4, box.y + box.height * 0.4);
  // the seek goes back to a restore point and steps on from there: wait until it has landed, the
  // first decision at or after the time the guide showed (its label rounds to 10 ms; a click's
  // whole-pixel coordinates once put it up to a pixel, ~15 ms here, earlier)
  await expect
    .poll(async () => {
      const s = await page.evaluate(() => window.fairground.state());
      return s.decisionCount < before.decisionCount && s.simTime >= target - 0.005;
    })
    .toBe(true);
  const after = await page.evaluate(() => window.fairground.state());
  expect(after.simTime).toBeLessThan(target + 1);
  const seen = await snapshot(page);
  const straight = await page.evaluate(
    async ({ text, n }) => {
      await window.fairground.load(text);
      await window.fairground.step(n);
      return window.fairground.snapshot();
    },
    { text: DEFAULT_TEXT, n: after.decisionCount },
  );
  expect(seen).toEqual(straight);
});
