import { expect, test } from '@playwright/test';
import { openPlain, pickScenario } from './helpers';

// The Sweep dialog starts on a parameter that changes the outcome (sweep-default.test.ts measures
// it): the worker count on a cluster (the default scenario's Q^u gave five identical runs), the
// algorithm's knob on one worker. Only the form is checked; views-layout runs a whole sweep.
for (const [id, key, text] of [
  ['default', 'cluster.workers', '4 points (1, 2, 3, 4)'],
  [
    'fig1-kv-pressure',
    'scheduler.quantum',
    '5 points (625, 1\u202f250, 2\u202f500, 5\u202f000, 10\u202f000)',
  ],
] as const)
  test(`the Sweep dialog starts on ${key} for ${id}: ${text}`, async ({ page }) => {
    await openPlain(page);
    await pickScenario(page, id);
    await page.getByRole('button', { name: 'Sweep' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sweep' });
    await expect(dialog.getByRole('combobox', { name: 'Parameter' })).toHaveValue(key);
    await expect(dialog).toContainText(text);
  });
