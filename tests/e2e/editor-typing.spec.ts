/**
 * Typing in the YAML editor as a person does: Enter after a value starts a new line. Monaco used to
 * offer words of the open documents (the default scenario's description has "1.5k-token") as
 * completions, and the Enter meant for a new line took one, turning `extra: 1` into `extra: 1.5k…`.
 */
import { expect, test } from '@playwright/test';
import { editorReady, open } from './helpers';

test('Enter after a typed value starts a new line; no word from the documents is completed', async ({
  page,
}) => {
  await open(page);
  expect(await editorReady(page, 'policy')).not.toBe('plain');
  const before = await page.evaluate(() => window.fairground.editor.text('policy'));
  const region = page.getByRole('region', { name: 'Policy editor' });
  await region.locator('.monaco-editor').click({ position: { x: 80, y: 30 } });
  await page.keyboard.press('ControlOrMeta+Home');
  for (const value of ['1', '1.5', 'bulk']) {
    await page.keyboard.type(`extra_${value.length}: ${value}`, { delay: 60 });
    // long enough for quick suggestions to open (Monaco's delay is 10 ms; typing pauses are longer)
    await expect(page.locator('.monaco-editor .suggest-widget.visible')).toHaveCount(0);
    await page.keyboard.press('Enter');
  }
  await expect
    .poll(() => page.evaluate(() => window.fairground.editor.text('policy')))
    .toBe(`extra_1: 1\nextra_3: 1.5\nextra_4: bulk\n${before}`);
});
