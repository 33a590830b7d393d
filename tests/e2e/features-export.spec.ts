import { readFileSync } from 'node:fs';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { openPlain, pickScenario, playhead } from './helpers';

/** Click `button` and read the file it downloads: its suggested name and its text. */
async function downloaded(page: Page, button: Locator): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return {
    name: download.suggestedFilename(),
    text: readFileSync((await download.path()) as string, 'utf8'),
  };
}

test('Export: the run as JSON downloads with the run keys; a chart downloads as SVG', async ({ page }) => {
  await openPlain(page);
  await page.evaluate(() => window.fairground.step(300));
  await expect.poll(() => playhead(page)).toBe(300);
  // a probe chart: dark text on the palette's blue (4.05:1, the tester's radix export), white text on
  // its yellow, and page ink on the page's own background
  await page.evaluate(() => {
    const probe = document.createElement('section');
    probe.setAttribute('aria-label', 'Contrast probe');
    probe.innerHTML = `<svg width="240" height="100" viewBox="0 0 240 100">
      <rect width="120" height="100" style="fill:#0072b2"/><rect x="120" width="60" height="100" style="fill:#f0e442"/>
      <text id="p-blue" x="10" y="50" style="fill:#000000">560</text>
      <text id="p-yellow" x="130" y="50" style="fill:#ffffff">42</text>
      <text id="p-page" x="190" y="50" style="fill:#1d1d1f">7</text></svg>`;
    document.querySelector('.workspace')?.append(probe);
  });
  await page.getByRole('button', { name: 'Export' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export' });
  await expect(dialog).toContainText('at decision 300');

  const run = await downloaded(page, dialog.getByRole('button', { name: 'Run as JSON' }));
  expect(run.name).toMatch(/-run\.json$/);
  const json = JSON.parse(run.text);
  expect(json).toMatchObject({ format: 'fairground-run', version: 1, kind: 'cluster', decisions: 300 });
  for (const k of ['jain_index', 'throughput', 'clients', 'latency', 'requests'])
    expect(json.result).toHaveProperty(k);
  expect(json.result.decisions).toBeGreaterThanOrEqual(300);
  expect(json.snapshot).toHaveProperty('sim_time_s');
  expect(typeof json.scenario_yaml).toBe('string');
  expect(Array.isArray(json.requests)).toBe(true);

  const csv = await downloaded(page, dialog.getByRole('button', { name: 'Time series as CSV' }));
  expect(csv.text.split('\r\n')[0]).toMatch(/^t_s,service:/);

  const { text } = await downloaded(
    page,
    dialog.getByRole('button', { name: /^Client service — .* as SVG$/ }).first(),
  );
  expect(text).toMatch(/^<\?xml/);
  expect(text).toContain('<svg');
  expect(text).not.toContain('var(--');
  // the image says what it shows, of which scenario, when
  // (the heading's lines, wrapped to the chart's width, come before the chart's own <svg>)
  const heading = [
    ...text
      .slice(text.indexOf('<svg') + 4)
      .split('<svg')[0]
      .matchAll(/<text([^>]*)>([^<]*)<\/text>/g),
  ];
  expect(
    heading
      .filter((m) => !m[1].includes('data-key'))
      .map((m) => m[2])
      .join(' '),
  ).toMatch(/^Client service — Cumulative service per client Default\b.* · t = [\d.]+ s, decision 300$/);
  // and the key the page shows beside the chart: each client's line, in its colour (tester finding:
  // an exported chart had no legend)
  expect(heading.filter((m) => m[1].includes('data-key')).map((m) => m[2])).toEqual([
    'alice',
    'bob',
    'mallory',
  ]);

  // every label reads at AA on the fill under it: black on blue and white on yellow are rewritten
  const probeText = (await downloaded(page, dialog.getByRole('button', { name: 'Contrast probe as SVG' })))
    .text;
  const fillOf = (id: string) =>
    new RegExp(`id="${id}" [^>]*style="[^"]*;fill:([^;"]+)`).exec(probeText)?.[1];
  expect(fillOf('p-blue')).toBe('rgb(255, 255, 255)');
  expect(fillOf('p-yellow')).toBe('rgb(0, 0, 0)');
  expect(probeText).toMatch(/id="p-page" [^>]*style="fill:rgb\(29, 29, 31\);[^"]*"/);
});

test('Export in the DRR sandbox: the steps as CSV', async ({ page }) => {
  await openPlain(page);
  await pickScenario(page, 'drr-burst');
  // two pops after the eight preloaded enqueues: the CSV has all ten ops run so far
  await page.evaluate(() => window.fairground.step(2));
  await page.getByRole('button', { name: 'Export' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export' });
  await expect(dialog.getByRole('button', { name: 'Time series as CSV' })).toBeDisabled();
  const lines = (await downloaded(page, dialog.getByRole('button', { name: 'Steps as CSV' }))).text
    .trim()
    .split('\r\n');
  expect(lines[0]).toBe('op,id,class,cost,cursor,carry');
  expect(lines).toHaveLength(11);
  expect(lines[10]).toMatch(/^pop,a1,A,3,/);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});

// Tester finding (new user): the page's Run as JSON left out how the trace was replayed, which
// run --json gives (`trace_replay`), so a time scale of 0.5 went unsaid.
test('Export: a run that replays a trace says which and at what clock, as run --json does', async ({
  page,
}) => {
  await openPlain(page);
  await pickScenario(page, 'trace-synthetic-chat');
  await page.evaluate(() => window.fairground.step(200));
  await expect.poll(() => playhead(page)).toBe(200);
  await page.getByRole('button', { name: 'Export' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export' });
  const json = JSON.parse((await downloaded(page, dialog.getByRole('button', { name: 'Run as JSON' }))).text);
  const scale = Number(
    /time_scale: ([\d.]+)/.exec(readFileSync('scenarios/trace-synthetic-chat.yaml', 'utf8'))?.[1],
  );
  expect(json.result.trace_replay).toMatchObject({
    file: 'traces/synthetic-chat.jsonl',
    time_scale: scale,
    start_s: 0,
  });
});

// Guarantees' text alternative reads out the run's figures ("Max gap 1 150 of bound 26 200 …"): the
// exported file was named after them. The chart's name is what it shows, the figures stay its title.
test('Export names the Guarantees chart after what it shows, not the run’s figures', async ({ page }) => {
  await openPlain(page);
  await pickScenario(page, 'guarantee-dlpm');
  await page.evaluate(() => window.fairground.step(300));
  await expect.poll(() => playhead(page)).toBe(300);
  await page.getByRole('button', { name: 'Export' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export' });
  const svg = dialog.getByRole('button', { name: 'Guarantees — Service gap per client pair as SVG' });
  const file = await downloaded(page, svg);
  expect(file.name).toBe('guarantees-service-gap-per-client-pair.svg');
  expect(file.text).toContain('Max gap');
});
