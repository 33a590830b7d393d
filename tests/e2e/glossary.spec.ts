/**
 * The page's shorthand has a definition one tap away (tester F12): hover tooltips do not open on a
 * phone. Tapping a term's "?" shows its definition from the one glossary (src/ui/Glossary.tsx);
 * tapping again hides it; the keyboard reaches it too.
 */
import { expect, type Page, test } from '@playwright/test';
import { GLOSSARY, type GlossaryId } from '../../src/ui/Glossary';
import { openPlain, pickScenario } from './helpers';

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

/** Tap the "?" of glossary term `id` (the first on the page), see its definition, tap it away. */
async function tapTerm(page: Page, id: GlossaryId): Promise<void> {
  const g = GLOSSARY[id];
  const q = page.getByRole('button', { name: `What is ${g.term}?` }).first();
  await q.scrollIntoViewIfNeeded();
  await q.tap();
  await expect(q, id).toHaveAttribute('aria-expanded', 'true');
  const note = page.locator(`#${await q.getAttribute('aria-controls')}`.replace(/:/g, '\\:'));
  await expect(note, id).toBeVisible();
  await expect(note, id).toContainText(g.text);
  await q.tap();
  await expect(note, id).toHaveCount(0);
}

test('on a phone, tapping "?" beside q_i and step shows their definitions', async ({ page }) => {
  await openPlain(page);
  await page.evaluate(() => window.fairground.runUntil(10));
  for (const id of ['q-i', 'step-ms'] as const) {
    const g = GLOSSARY[id];
    const q = page.getByRole('button', { name: `What is ${g.term}?` }).first();
    await q.scrollIntoViewIfNeeded();
    await q.tap();
    await expect(q).toHaveAttribute('aria-expanded', 'true');
    const note = page.locator(`#${await q.getAttribute('aria-controls')}`.replace(/:/g, '\\:'));
    await expect(note).toBeVisible();
    await expect(note).toContainText(g.text);
    await q.tap();
    await expect(note).toHaveCount(0);
  }
  // the keyboard: focus and Enter
  const q = page.getByRole('button', { name: 'What is q_i?' }).first();
  await q.focus();
  await page.keyboard.press('Enter');
  await expect(q).toHaveAttribute('aria-expanded', 'true');
});

// The rest of the shorthand the views print (tester F12, second part): the DRR ring's profile and
// variant, the service weights, the bound's Q^u and a paper scenario's S1 / S2.
test('on a phone, profile (root), V2, w_e and w_q, Q^u and S1 / S2 open their definitions by tap', async ({
  page,
}) => {
  await openPlain(page);
  await page.evaluate(() => window.fairground.runUntil(5));
  for (const id of ['profile-root', 'drr-v2'] as const) await tapTerm(page, id);
  // the weights are named under the service totals, which a run without client deficits shows
  await pickScenario(page, 'lpm-tot-s1');
  await page.evaluate(() => window.fairground.runUntil(5));
  await tapTerm(page, 'w-e-q');
  await pickScenario(page, 'guarantee-dlpm');
  await page.evaluate(() => window.fairground.runUntil(5));
  await tapTerm(page, 'q-u');
  await pickScenario(page, 'paper-tot-s1-4w');
  // the scenario's name is in its panel, folded to one line on a phone: unfold it first
  const panel = page.locator('.scenario-panel');
  if ((await panel.getAttribute('data-folded')) === 'true') await panel.locator('.fold-toggle').tap();
  await expect(panel).toHaveAttribute('data-folded', 'false');
  // the title reads whole: its one "?" comes after it, not between "S1" and "misbehaving"
  await expect(panel.locator('.scenario-name')).toHaveText(
    'Paper: Tree of Thoughts, S1 misbehaving client, 4 workers ?',
  );
  await tapTerm(page, 's1-s2');
  await page.screenshot({ path: 'test-results/glossary-s1-390x844.png' });
});
