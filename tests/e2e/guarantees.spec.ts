/**
 * Guarantees live in the browser: the deliberately broken DLPM (a quantum per request) shows its
 * violation with the time it happened and the warning; the real DLPM on the same workload shows none.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { open, pickScenario } from './helpers';

const REAL = readFileSync('scenarios/guarantee-dlpm.yaml', 'utf8');
const BROKEN = readFileSync('scenarios/guarantee-broken-dlpm.yaml', 'utf8');

test('the broken DLPM violates the bound and says when; the real one does not', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await open(page);
  const region = page.getByRole('region', { name: 'Guarantees' });

  await page.evaluate((t) => window.fairground.load(t), BROKEN);
  await page.evaluate(() => window.fairground.runUntil(12));
  await expect(region.getByRole('note')).toContainText('deliberately broken DLPM');
  await expect(region).toContainText(
    /violated at t = \d+(\.\d+)? s: (alice|bob)–hog gap [\d,]+ > bound 26,200/,
  );
  await expect(region.getByRole('list', { name: 'Violations' }).getByRole('listitem').first()).toContainText(
    'violated at t =',
  );
  await expect(region.getByRole('img')).toHaveAttribute(
    'aria-label',
    /of bound 26,200 .*violations?, first at t = /,
  );
  await expect(region.locator('.gu-violation').first()).toBeAttached();

  await page.evaluate((t) => window.fairground.load(t), REAL);
  await page.evaluate(() => window.fairground.runUntil(12));
  await expect(region).toContainText('no violations');
  await expect(region).toContainText('2·(12,600 + 500) = 26,200');
  await expect(region).not.toContainText('violated at');
  await expect(region.getByRole('note')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('DoubleQ: a bound far above the gaps goes off scale instead of flattening them', async ({ page }) => {
  await open(page);
  await pickScenario(page, 'paper-tot-s1-4w');
  await page.evaluate(() => window.fairground.runUntil(10));
  const region = page.getByRole('region', { name: 'Guarantees' });
  await expect(region.locator('.gu-bound[data-off-scale="true"]')).toBeAttached();
  await expect(region.getByRole('img')).toContainText(/bound [\d,]+ ↑ \(off scale\)/);
  await expect(region.getByRole('list', { name: 'Client pairs' })).toContainText(
    /bound [\d,]+ \(above the axis\)/,
  );
  // the Client service curves keep their own scale; the bound is a gauge against their spread (#13.3)
  const cs = page.getByRole('region', { name: 'Client service' });
  await expect(cs.locator('.band')).toHaveCount(0);
  await expect(cs.locator('.cs-spread .gu-gauge-bound')).toBeAttached();
  await expect(cs.locator('.cs-spread')).toContainText(
    /leader − last client = [\d\s,]+ = [<\d.\s]+ % of the bound/,
  );
});
