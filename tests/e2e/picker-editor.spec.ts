/**
 * Tryout (new user, keyboard and editor):
 * - a scenario picked with ↓ kept the focus on the picker, → stepped (the page's key), and then P
 *   chose "Paper: …" by its first letter and replaced the run; R did nothing. Enter, Escape, ← or →
 *   on the picker (its list closed) now hand the focus to Play, so the page's letters work again; the
 *   help says that letters pick a scenario while the list has the focus;
 * - the note under the policy editor said "This run follows Dynamo v1.6's queue
 *   (router.dynamo_release)" for a scenario without that key and for DRR sandbox scripts, whose key
 *   is `release:`;
 * - the picker still named the shipped scenario after its whole text was replaced by another one;
 * - undoing a typo back to the text the run was built from restarted the run.
 */
import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { editorReady, open, openPlain, pasteInto, pickScenario, playhead } from './helpers';

const scenarioId = (page: Page) => page.getByRole('combobox', { name: 'Scenario' }).inputValue();
const shown = (page: Page) =>
  page.getByRole('combobox', { name: 'Scenario' }).evaluate((el) => {
    const s = el as HTMLSelectElement;
    return s.options[s.selectedIndex]?.textContent ?? '';
  });

test.describe('the Scenario picker by keyboard', () => {
  test('↓ picks, → steps and gives the keys back: P then presents, it does not pick "Paper: …"', async ({
    page,
  }) => {
    await openPlain(page);
    const picker = page.getByRole('combobox', { name: 'Scenario' });
    const play = page.locator('[data-transport="play"]');
    await picker.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => scenarioId(page)).not.toBe('default');
    const picked = await scenarioId(page);
    await expect(picker).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => playhead(page)).toBe(1);
    await expect(play).toBeFocused();
    await page.keyboard.press('p');
    await expect(page.locator('.app')).toHaveAttribute('data-presenting', 'on');
    await page.keyboard.press('p');
    await expect(page.locator('.app')).not.toHaveAttribute('data-presenting', 'on');
    await page.keyboard.press('r');
    await expect.poll(() => playhead(page)).toBe(0);
    expect(await scenarioId(page)).toBe(picked);
    await expect(picker).toHaveValue(picked);
  });

  for (const key of ['Enter', 'Escape'])
    test(`${key} after picking with ↓ hands the focus to Play: R resets, the scenario stays`, async ({
      page,
    }) => {
      await openPlain(page);
      const picker = page.getByRole('combobox', { name: 'Scenario' });
      await picker.focus();
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => scenarioId(page)).not.toBe('default');
      const picked = await scenarioId(page);
      await page.keyboard.press(key);
      await expect(page.locator('[data-transport="play"]')).toBeFocused();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => playhead(page)).toBe(2);
      await page.keyboard.press('r');
      await expect.poll(() => playhead(page)).toBe(0);
      expect(await scenarioId(page)).toBe(picked);
    });

  test('the help says that letters pick a scenario while the list has the focus', async ({ page }) => {
    await openPlain(page);
    await page.keyboard.press('?');
    const help = page.getByRole('dialog');
    await expect(help).toContainText('With the Scenario list focused: pick a scenario');
    await expect(help).toContainText('Enter, Esc, ← or → then gives the keys back to the page');
  });

  test('at 390×844 every row of the help shows its words inside the dialog (a long key pushed them out)', async ({
    browser,
  }) => {
    const ctx = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await ctx.newPage();
    await openPlain(page);
    await page.keyboard.press('?');
    const help = page.getByRole('dialog');
    await expect(help).toBeVisible();
    const out = await help.evaluate((d) => {
      const box = d.getBoundingClientRect();
      return [...d.querySelectorAll('tr')].flatMap((tr) =>
        [...tr.children]
          .filter((c) => {
            const r = c.getBoundingClientRect();
            return r.width < 40 || r.right > box.right + 1;
          })
          .map((c) => (c.textContent ?? '').slice(0, 30)),
      );
    });
    expect(out).toEqual([]);
    await ctx.close();
  });
});

test('the note under the policy editor names what decides the release: default or set, scenario or script key', async ({
  page,
}) => {
  await openPlain(page);
  await page.getByRole('tab', { name: /^Policy/ }).click();
  const note = page.locator('.editor-release-run');
  await expect(note).toHaveText(
    "This run follows Dynamo v1.6's queue, the default: the scenario sets no router.dynamo_release.",
  );
  await expect(note).toHaveAttribute(
    'title',
    /Without router\.dynamo_release a scenario models the newest release/,
  );
  await pickScenario(page, 'cluster-periodic-update');
  await expect(note).toHaveText(
    "This run follows Dynamo v1.5's queue, as the scenario's router.dynamo_release says.",
  );
  await expect(note).toHaveAttribute('title', /Set by router\.dynamo_release in the scenario \(v1\.5\)/);
  await pickScenario(page, 'drr-burst');
  await expect(note).toHaveText("This script runs Dynamo v1.6's queue, the default: it has no release: key.");
  await pickScenario(page, 'drr-lanes-deadlines');
  await expect(note).toHaveText(/^This script runs Dynamo v1\.\d's queue, as its release: key says\.$/);
  await expect(note).toHaveAttribute('title', /Set by the script's release: key/);
});

test('the picker says the text is custom or edited once the editor no longer holds the shipped one', async ({
  page,
}) => {
  await openPlain(page);
  const title = await shown(page);
  expect(title).toMatch(/^Default — /);
  await page.getByRole('tab', { name: /^Scenario/ }).click();
  expect(await editorReady(page, 'scenario')).toBe('textarea');
  // the whole text replaced by another scenario
  const other = readFileSync('scenarios/cluster-periodic-update.yaml', 'utf8').replace(
    /^name: .*$/m,
    'name: periodic update worked example',
  );
  await pasteInto(page, 'Scenario editor', other);
  await expect.poll(() => shown(page)).toBe('(custom) periodic update worked example');
  // a small edit keeps the name: the shipped title, marked edited
  await page.getByRole('button', { name: 'Revert' }).click();
  await expect.poll(() => shown(page)).toBe(title);
  const region = page.getByRole('region', { name: 'Scenario editor' });
  await region.locator('textarea').click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type('# my note\n');
  await expect.poll(() => shown(page)).toBe(`${title} (edited)`);
  await page.getByRole('button', { name: 'Revert' }).click();
  await expect.poll(() => shown(page)).toBe(title);
});

test('undoing a typo back to the text the run was built from keeps the run where it is', async ({ page }) => {
  await open(page);
  expect(await editorReady(page, 'policy')).toBe('monaco');
  await page.locator('body').click({ position: { x: 5, y: 700 } });
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  await expect.poll(() => playhead(page)).toBe(5);
  const before = await page.evaluate(() => window.fairground.editor.text('policy'));
  const region = page.getByRole('region', { name: 'Policy editor' });
  await region.locator('.monaco-editor').click({ position: { x: 80, y: 30 } });
  await page.keyboard.press('ControlOrMeta+Home');
  await page.keyboard.type('[');
  await expect(page.getByRole('button', { name: /1 problem/ })).toBeVisible();
  expect(await playhead(page)).toBe(5);
  await page.keyboard.press('ControlOrMeta+Z');
  await expect.poll(() => page.evaluate(() => window.fairground.editor.text('policy'))).toBe(before);
  await expect(page.getByRole('button', { name: /problem/ })).toHaveCount(0);
  // the applied edit would have restarted the run by now (the editor applies after ~400 ms)
  await page.waitForTimeout(1200);
  expect(await playhead(page)).toBe(5);
});

test('a scenario switched by keyboard right after an edit keeps the edit: switching back restores it', async ({
  page,
}) => {
  await openPlain(page);
  await page.getByRole('tab', { name: /^Scenario/ }).click();
  expect(await editorReady(page, 'scenario')).toBe('textarea');
  await page.getByRole('region', { name: 'Scenario editor' }).locator('textarea').click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type('# kept\n');
  const edited = await page.evaluate(() => window.fairground.editor.text('scenario'));
  expect(edited).toMatch(/# kept\n$/);
  // at once, before the edit is applied (~400 ms): ↓ on the picker opens the next scenario
  const picker = page.getByRole('combobox', { name: 'Scenario' });
  await picker.focus();
  await page.keyboard.press('ArrowDown');
  await expect(picker).not.toHaveValue('default');
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => playhead(page)).toBe(1);
  // the edit left behind does not restart the scenario now shown
  await page.waitForTimeout(1000);
  expect(await playhead(page)).toBe(1);
  await picker.focus();
  await page.keyboard.press('ArrowUp');
  await expect(picker).toHaveValue('');
  await expect.poll(() => page.evaluate(() => window.fairground.editor.text('scenario'))).toBe(edited);
  await expect.poll(() => shown(page)).toMatch(/^Default — .* \(edited\)$/);
});
