import { expect, test } from '@playwright/test';
import { open, pickScenario, playhead } from './helpers';

test.describe.configure({ mode: 'parallel' });

test('selecting a pop in the Dynamo burst explains it step by step, with links to the policy lines', async ({
  page,
}) => {
  await open(page);
  await pickScenario(page, 'drr-burst');
  // (the 8 requests are preloaded) the 4th pop (b0): A's carry is short, B earns 10 and keeps 7.
  await page.evaluate(() => window.fairground.step(4));
  await expect.poll(() => playhead(page)).toBe(4);
  await expect(page.getByRole('region', { name: 'Explanation' })).toHaveCount(0);
  await page.getByRole('log', { name: 'Decision log' }).locator('[data-seq="3"]').click();

  const explanation = page.getByRole('region', { name: 'Explanation' });
  await expect(explanation).toBeVisible();
  const steps = explanation.locator('ol > li');
  await expect(steps).toHaveCount(2);
  await expect(steps.nth(0)).toContainText('class A still has 1 token of credit');
  await expect(steps.nth(0)).toContainText('a3 costs 3 > 1');
  await expect(steps.nth(1)).toContainText('B earns its quantum: 0 + 10 = 10 ≥ 3');
  await expect(explanation).toContainText(/Result: b0 from B \(cost 3\); B keeps 7 credit/);

  // Each step names a class: its link reveals that class's line in the policy.
  await page.getByRole('tab', { name: 'Scenario' }).click();
  const link = explanation
    .getByRole('button', { name: /Show class B in the policy editor \(line 4\)/ })
    .first();
  await link.click();
  await expect(page.getByRole('tab', { name: 'Policy' })).toHaveAttribute('aria-selected', 'true');

  // An earlier pop: the carry pays without a new quantum.
  await page.getByRole('log', { name: 'Decision log' }).locator('[data-seq="1"]').click();
  await expect(explanation.locator('ol > li').first()).toContainText('7 tokens of credit');
  await expect(explanation).toContainText('A keeps 4 credit');
});

test('window.fairground.explain() tells the newest decision in numbered lines', async ({ page }) => {
  await open(page);
  await pickScenario(page, 'drr-burst');
  expect(await page.evaluate(() => window.fairground.explain())).toMatch(/No decision/);
  await page.evaluate(() => window.fairground.step(1));
  const text = await page.evaluate(() => window.fairground.explain());
  expect(text.split('\n')).toEqual([
    expect.stringMatching(/^1\. Start: .*ring scan starts at A/),
    expect.stringMatching(/^2\. A: .*0 \+ 10 = 10 ≥ 3, so A dispatches a0\.$/),
    expect.stringMatching(/^Result: a0 from A \(cost 3\); A keeps 7 credit and becomes the carry/),
  ]);
});

// On a phone the editors fold to one line: "policy line 4" did nothing there (the line was selected in
// a hidden editor). The link unfolds the editors and brings the line into sight.
test('on a phone an explanation’s link to a policy line unfolds the editor and shows the line', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page);
  await pickScenario(page, 'drr-burst');
  await page.evaluate(() => window.fairground.step(4));
  await expect.poll(() => playhead(page)).toBe(4);
  await page.locator('.fold-toggle[aria-controls="fold-log"]').click();
  await page.getByRole('log', { name: 'Decision log' }).locator('[data-seq="3"]').click();
  const explanation = page.getByRole('region', { name: 'Explanation' });
  const link = explanation
    .getByRole('button', { name: /Show class B in the policy editor \(line 4\)/ })
    .first();
  await link.click();
  const editor = page.getByRole('region', { name: 'Policy editor' });
  await expect(editor).toBeVisible();
  await expect(editor).toBeInViewport();
  await expect(editor.locator('.view-line', { hasText: 'name: B' })).toBeInViewport();
});
