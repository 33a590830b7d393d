/**
 * A queued request's pinned worker and due time decide when it may leave (the exact-worker lanes of
 * Dynamo v1.4+, the due times of v1.6+), but the Class queues chips showed neither, and "t 2" (the
 * op number) read like `due_at: 2` (tryout, drr-lanes-deadlines). The chips now say "worker 0" and
 * "due 2" in legible text, their titles explain both, and the arrival is labelled as one.
 */
import { expect, test } from '@playwright/test';
import { openPlain, pickScenario } from './helpers';

test('Class queues: a pinned request shows its worker, a due one its due time, and the arrival says so', async ({
  page,
}) => {
  await openPlain(page);
  await pickScenario(page, 'drr-lanes-deadlines');
  const view = page.getByRole('region', { name: 'Class queues' });
  const chip = (id: string) => view.locator(`li[data-request="${id}"] .cq-chip`);
  await expect(chip('p0')).toBeVisible();
  await expect(chip('p0').locator('.cq-lane')).toHaveText('worker 0');
  await expect(chip('p0')).toHaveAttribute('title', /pinned to worker 0: waits in that worker's lane/);
  await expect(chip('i1').locator('.cq-lane')).toHaveText('due 2');
  await expect(chip('i1')).toHaveAttribute('title', /due at 2 \(due_at/);
  await expect(chip('b1').locator('.cq-lane')).toHaveText('due 2');
  // neither pinned nor due: no lane line
  await expect(chip('i2').locator('.cq-lane')).toHaveCount(0);
  // i1 is op 2: its arrival is labelled as an arrival, never a bare "t 2"
  await expect(chip('i1').locator('.cq-meta')).toHaveText('c 3 · arrival 2');
  await expect(view.locator('.legend')).toContainText('worker n = pinned to worker n');
  // legible: no chip text under 14 px
  const sizes = await view
    .locator('.cq-chip span')
    .evaluateAll((els) => els.map((e) => Number.parseFloat(getComputedStyle(e).fontSize)));
  expect(Math.min(...sizes)).toBeGreaterThanOrEqual(14);
});
