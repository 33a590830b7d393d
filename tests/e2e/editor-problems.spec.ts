/**
 * The policy editor's markers and problem list carry the same problems as `validate` (#15 leftovers):
 * an unclosed quote is marked at its opening quote, not past the end of the text, and a policy's
 * schema and rule problems come in one round.
 */
import { expect, type Page, test } from '@playwright/test';
import { editorReady, open, pasteInto, pickScenario } from './helpers';

async function policyEditor(page: Page): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page);
  await pickScenario(page, 'drr-burst');
  await page.getByRole('tab', { name: 'Policy' }).click();
  expect(await editorReady(page, 'policy')).toBe('monaco');
}

const ours = (page: Page) =>
  page.evaluate(() =>
    window.fairground.editor
      .markers('policy')
      .filter((m) => m.owner === 'fairground')
      .map((m) => `${m.line}:${m.col}: ${m.message}`),
  );

test('an unclosed quote is marked at the opening quote and listed with its place', async ({ page }) => {
  await policyEditor(page);
  await pasteInto(
    page,
    'Policy editor',
    'policy_classes:\n  - name: "a\n    quantum: 2\n  - {name: b, quantum: 3}\n',
  );
  await expect
    .poll(() => ours(page))
    .toEqual([
      '2:11: unclosed quote: this `"` is never closed (end the text with `"`; a `"` inside the text is written `\\"`)',
    ]);
  const list = page
    .getByRole('region', { name: 'Policy editor' })
    .getByRole('list', { name: 'Policy problems' });
  await expect(list.getByRole('button')).toHaveCount(1);
  await expect(list.getByRole('button').first()).toContainText('2:11');
});

test("the problem list shows the schema's and the rules' problems at once", async ({ page }) => {
  await policyEditor(page);
  await pasteInto(
    page,
    'Policy editor',
    [
      'policy_classes:',
      '  - {name: A, quantum: -1}',
      '  - {name: A, quantum: 5}',
      '  - {name: C, quantum: 2, busy_worker_ratio: 0.5}',
      '',
    ].join('\n'),
  );
  // before, only the quantum was listed; the duplicate name and the missing threshold came after a fix
  await expect
    .poll(async () => (await ours(page)).map((m) => m.replace(/ \(.*$|;.*$/, '')))
    .toEqual([
      '2:24: policy_classes[0].quantum: quantum must be ≥ 1',
      "3:12: duplicate class name 'A'",
      "4:27: class 'C': busy_worker_ratio needs prefill_busy_threshold or prefill_busy_threshold_frac",
    ]);
  const list = page
    .getByRole('region', { name: 'Policy editor' })
    .getByRole('list', { name: 'Policy problems' });
  await expect(list.getByRole('button')).toHaveCount(3);
});
