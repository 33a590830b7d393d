import { expect, test } from '@playwright/test';

// One chatty client on one worker: from the second turn on, each prompt extends the cached context.
const CHAT = `version: 1
name: radix highlight
seed: 3
duration_s: 12
cluster: { workers: 1, gpu: a100-80gb, model: llama-3.1-8b }
router: { routing: round-robin }
scheduler: { policy: fcfs }
clients:
  - name: alice
    arrival: { process: poisson, rate: 1 }
    program: { type: multi-turn, turns: 4, prompt_tokens: 80, output_tokens: 40, think_time_s: 0.5, shared_prefix_tokens: 300 }
`;

test('selecting an admission that hit the prefix cache outlines the matched path in that worker’s radix tree', async ({
  page,
}) => {
  await page.goto('./');
  await page.waitForFunction(() => typeof window.fairground?.load === 'function');
  await page.evaluate(async (text) => {
    await window.fairground.load(text);
    await window.fairground.runUntil(8);
  }, CHAT);
  const hit = page
    .getByRole('log', { name: 'Decision log' })
    .locator('li', { hasText: /admits .*; [1-9]\d*\/\d+ prompt tokens cached/ })
    .first();
  await hit.click();
  const workers = page.getByRole('region', { name: 'Workers' });
  await expect(workers.locator('details[open]')).toHaveCount(1);
  await expect.poll(() => workers.locator('rect.on-path').count()).toBeGreaterThan(1);
});
