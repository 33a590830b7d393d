/**
 * The page's shorthand has a definition one tap away (tester F12): hover tooltips do not open on a
 * phone. Tapping a term's "?" shows its definition from the one glossary (src/ui/Glossary.tsx);
 * tapping again hides it; the keyboard reaches it too.
 */
import { expect, test } from '@playwright/test';
import { GLOSSARY } from '../../src/ui/Glossary';
import { open } from './helpers';

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

test('on a phone, tapping "?" beside q_i and step shows their definitions', async ({ page }) => {
  await open(page);
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
