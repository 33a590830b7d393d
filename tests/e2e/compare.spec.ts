import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, type Page, test } from '@playwright/test';
import { type DiffRow, fmtRow } from '../../src/ui/compare/diff';
import { DEFAULT_TEXT, openPlain, pickScenario } from './helpers';

const CLI = 'dist-cli/fairground.mjs';

/** The default scenario, compared with run B as the Compare dialog starts it (B the same as A). */
async function compareAsIs(page: Page): Promise<void> {
  await openPlain(page);
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Compare' });
  await dialog.getByRole('button', { name: 'Start comparing' }).click();
  await expect(dialog).toHaveCount(0);
}

test('Compare runs B next to A on one timeline; the link restores it; Escape leaves', async ({
  page,
  context,
}) => {
  await openPlain(page);
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Compare' });
  await dialog.getByRole('combobox', { name: 'B scheduler' }).selectOption('lpm');
  await dialog.getByRole('button', { name: 'Start comparing' }).click();
  await expect(dialog).toHaveCount(0);

  const colA = page.getByRole('region', { name: /^A: dlpm/ });
  const colB = page.getByRole('region', { name: /^B: lpm/ });
  await expect(colA).toBeVisible();
  await expect(colB).toBeVisible();
  // Editors are out of the way in compare mode.
  await expect(page.getByRole('region', { name: 'Policy editor' })).toBeHidden();

  const sameTime = async () => {
    const [ui, cmp] = await page.evaluate(() => [
      window.fairground.state(),
      window.fairground.compareState(),
    ]);
    return (ui as { simTime: number }).simTime === (cmp as { simTimeB: number }).simTimeB;
  };
  // Play A: B follows; on pause both rest at the same simulated time.
  await page.getByRole('slider', { name: 'Speed' }).fill('8');
  await page.getByRole('button', { name: 'Play' }).click();
  await expect.poll(() => page.evaluate(() => window.fairground.state().decisionCount)).toBeGreaterThan(300);
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect.poll(sameTime).toBe(true);
  // Step A: B follows to the same simulated time.
  await page.getByRole('button', { name: 'Step' }).click();
  await page.evaluate(() => window.fairground.step(1200));
  await expect.poll(sameTime).toBe(true);
  const count = await page.evaluate(() => window.fairground.state().decisionCount);
  const a = await page.evaluate(() => window.fairground.snapshot());
  const b = await page.evaluate(() => window.fairground.snapshotB());
  expect(b?.sim_time_s).toBeCloseTo(a.sim_time_s as number, 9);
  expect(b?.scenario).toBe(a.scenario);
  // Different schedulers, same workload: the runs differ.
  expect(JSON.stringify(b?.clients)).not.toBe(JSON.stringify(a.clients));

  // Both runs show their views; both decision counts are on screen.
  for (const col of [colA, colB]) {
    await expect(col.getByRole('region', { name: 'Client service' })).toBeVisible();
    await expect(col.getByRole('region', { name: 'Workers' })).toBeAttached();
    await expect(col.getByText(/[\d\u202f]+ decisions/)).toBeVisible();
  }
  // one thousands separator in the whole UI: U+202F, as the views print counts
  await expect(
    colA.getByText(`${String(count).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f')} decisions`),
  ).toBeVisible();

  // The Difference panel: a chart with a legend and a table with numbers.
  const diff = page.getByRole('region', { name: 'Difference' });
  await expect(diff).toBeVisible();
  await expect(diff.getByRole('img')).toBeVisible();
  await expect(diff.getByRole('list', { name: 'Chart legend' })).toContainText('mallory');
  const serviceRow = diff.locator('tr[data-row="service:mallory"]');
  await expect(serviceRow.locator('td').nth(0)).toHaveText(/\d/);
  await expect(serviceRow.locator('td').nth(1)).toHaveText(/\d/);
  // One number format (tester finding 7): U+2212 minus signs, no signed zero, no comma grouping,
  // and A and B print differently wherever B − A is not zero.
  const cells = await diff
    .locator('table.diff-table tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
  expect(cells.length).toBeGreaterThan(5);
  for (const [a, b, delta] of cells) {
    for (const c of [a, b, delta]) expect(c ?? '').not.toMatch(/-\d|\d,\d|[+−]0(\.0+)?( |$)/);
    if (delta !== undefined && /[1-9]/.test(delta)) expect(a).not.toBe(b);
  }
  await diff.getByRole('combobox', { name: 'Difference chart' }).selectOption('jain');
  await expect(diff.getByRole('list', { name: 'Chart legend' })).toContainText('B: lpm');

  // Share: the link carries both runs.
  await page.getByRole('button', { name: 'Share' }).click();
  const field = page.getByRole('textbox', { name: 'Share link' });
  await expect(field).toHaveValue(/#s=\d+\./);
  const link = await field.inputValue();
  await page.keyboard.press('Escape');
  await expect(field).toHaveCount(0);
  // That Escape closed the dialog only.
  await expect(colB).toBeVisible();

  const other = await context.newPage();
  await other.goto(link);
  await expect(other.getByRole('region', { name: /^B: lpm/ })).toBeVisible();
  await expect.poll(() => other.evaluate(() => window.fairground.state().decisionCount)).toBe(count);
  await expect
    .poll(() => other.evaluate(() => window.fairground.snapshotB().then((s) => s?.sim_time_s)))
    .toBe(b?.sim_time_s);
  expect(await other.evaluate(() => window.fairground.snapshotB())).toEqual(b);
  // The dialog reopens with the same B settings.
  await other.getByRole('button', { name: 'Compare', exact: true }).click();
  await expect(other.getByRole('combobox', { name: 'B scheduler' })).toHaveValue('lpm');
  await other.keyboard.press('Escape');
  await other.close();

  // Escape leaves compare mode: the usual views and editors come back.
  await page.locator('body').click({ position: { x: 5, y: 760 } });
  await page.keyboard.press('Escape');
  await expect(colB).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Difference' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Client service' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Compare', exact: true })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
});

test('Compare reports overrides that do not apply, and A keeps running', async ({ page }) => {
  await openPlain(page);
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Compare' });
  await dialog.getByRole('textbox', { name: 'B overrides' }).fill('scheduler.policy=nonsense');
  await dialog.getByRole('button', { name: 'Start comparing' }).click();
  await expect(dialog.getByRole('alert')).toContainText('scheduler.policy');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(await page.evaluate(() => window.fairground.compareState().active)).toBe(false);
  // The hook: overrides straight from a test.
  await page.evaluate(() => window.fairground.compare(['router.routing=round-robin']));
  await expect(page.getByRole('region', { name: /^B: dlpm · round-robin/ })).toBeVisible();
  await page.evaluate(() => window.fairground.runUntil(5));
  const t = await page.evaluate(() => window.fairground.state().simTime);
  expect(t).toBeGreaterThanOrEqual(5);
  await expect.poll(() => page.evaluate(() => window.fairground.compareState().simTimeB)).toBe(t);
});

// In a DRR sandbox the overrides' example was `seed=7`, which a script refuses (it has no seed: "unknown
// key 'seed'"), and the dialog spoke of a scheduler and routing it does not offer there.
test('Compare in a DRR sandbox: the example overrides apply, and the dialog offers only what a script has', async ({
  page,
}) => {
  await openPlain(page);
  await pickScenario(page, 'drr-exact-ratio');
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Compare' });
  await expect(dialog).not.toContainText('scheduler');
  await expect(dialog).not.toContainText('simulated time');
  const overrides = dialog.getByRole('textbox', { name: 'B overrides' });
  await overrides.fill((await overrides.getAttribute('placeholder')) ?? '');
  await dialog.getByRole('button', { name: 'Start comparing' }).click();
  await expect(dialog).toHaveCount(0);
  await page.evaluate(() => window.fairground.step(4));
  await expect(page.getByRole('region', { name: /Difference/ })).toContainText('at step 4');
});

test("Jain's index: Figures and the Difference table say n/a the same way until it means something (#15)", async ({
  page,
}) => {
  const NA = 'n/a — needs two active clients and some service';
  await openPlain(page);
  // 40 decisions into the default scenario only one client has sent requests: the engine's index is
  // 1 by convention, which says nothing about fairness
  await page.evaluate(() => window.fairground.step(40));
  const early = await page.evaluate(() => window.fairground.snapshot());
  expect(early.kind === 'cluster' && early.series.rows.jain.at(-1)).toBe(1);
  const figures = page.getByRole('region', { name: 'Figures' });
  const now = figures.getByTestId('jain-now');
  await expect(now).toHaveText(`now: ${NA}`);
  await expect(now.locator('.jain-na')).toHaveAttribute('title', /1 by convention/);

  await page.evaluate(() => window.fairground.compare(['scheduler.policy=lpm']));
  const diff = page.getByRole('region', { name: 'Difference' });
  const jainRow = diff.locator('tr[data-row="jain"]');
  // neither run's index means anything yet: the same words once across A, B and B − A
  await expect(jainRow.locator('td')).toHaveCount(1);
  await expect(jainRow.locator('td')).toHaveText(NA);
  await expect(jainRow.locator('td .jain-na')).toHaveAttribute('title', /1 by convention/);

  // once two clients are compared, both views show the engine's numbers: the table the run's index
  // (run --json's jain_index, Figures' "run" line), labelled so, not the "since every client's first
  // request" one (tester p51)
  await page.evaluate(() => window.fairground.runUntil(30));
  const later = await page.evaluate(() => window.fairground.snapshot());
  if (later.kind !== 'cluster') throw new Error('cluster run expected');
  const rows = later.series.rows;
  expect(rows.jain_clients.at(-1)).toBeGreaterThanOrEqual(2);
  const value = (rows.jain.at(-1) as number).toFixed(3);
  const run = later.jain_run.index.toFixed(3);
  expect(run).not.toBe(value);
  await expect(jainRow.locator('th')).toHaveText("Jain's index, client view (as run --json)");
  // (the table may print a fourth decimal, where A and B would read equal at three while B − A is not 0)
  await expect(jainRow.locator('td').nth(0)).toHaveText(/^\d\.\d{3,}$/);
  expect(Number(await jainRow.locator('td').nth(0).textContent()).toFixed(3)).toBe(run);
  await page.getByRole('button', { name: 'Exit compare' }).click();
  await expect(page.getByRole('region', { name: 'Figures' }).getByTestId('jain-run')).toContainText(
    `run: client view ${run} · system view ${later.jain_run_system.index.toFixed(3)} (as run --json`,
  );
  const nowLater = page.getByRole('region', { name: 'Figures' }).getByTestId('jain-now');
  await expect(nowLater).toHaveText(`now: client view ${value} since every client's first request`);
  // its window is not the run JSON's jain_index window: the tooltip says how they differ
  await expect(nowLater).toHaveAttribute('title', /ends its window at the first client's last completion/);
});

/** `fairground run scenarios/default.yaml --json` with these overrides (the CLI bundle, in Node). */
async function cliRun(sets: string[]): Promise<CliRun> {
  const args = [CLI, 'run', 'scenarios/default.yaml', '--json', ...sets.flatMap((s) => ['--set', s])];
  const { stdout } = await promisify(execFile)('node', args, {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout) as CliRun;
}

interface CliRun {
  sim_time_s: number;
  decisions: number;
  cache_hit_rate: number;
  jain_index: number;
  throughput: { service_per_s: number };
  clients: Record<
    string,
    { service: number; ttft_p50_s: number; ttft_p99_s: number; e2e_p50_s: number; e2e_p99_s: number }
  >;
}

/** The Difference table's rows as they print when A and B are these two whole runs. */
function expectedRows(a: CliRun, b: CliRun): Record<string, { a: string; b: string; delta: string }> {
  const rows: [string, string, (r: CliRun) => number][] = [
    ['throughput', 'units/s', (r) => r.throughput.service_per_s],
    ['cache', '%', (r) => r.cache_hit_rate],
    ['jain', '', (r) => r.jain_index],
  ];
  for (const name of Object.keys(a.clients)) {
    rows.push([`service:${name}`, 'units', (r) => r.clients[name].service]);
    rows.push([`ttft50:${name}`, 's', (r) => r.clients[name].ttft_p50_s]);
    rows.push([`ttft99:${name}`, 's', (r) => r.clients[name].ttft_p99_s]);
    rows.push([`e2e50:${name}`, 's', (r) => r.clients[name].e2e_p50_s]);
    rows.push([`e2e99:${name}`, 's', (r) => r.clients[name].e2e_p99_s]);
  }
  return Object.fromEntries(
    rows.map(([key, unit, get]) => {
      const row: DiffRow = {
        key,
        label: key,
        unit,
        client: null,
        a: get(a),
        b: get(b),
        delta: get(b) - get(a),
      };
      return [key, fmtRow(row)];
    }),
  );
}

test('Compare plays each run to its own end; the Difference table then holds both final runs, as run --json gives them (tester p51)', async ({
  page,
}) => {
  // the whole runs in Node, while the page plays them
  const cli = Promise.all([cliRun([]), cliRun(['scheduler.policy=fcfs'])]);
  await openPlain(page);
  await page.evaluate(() => window.fairground.compare(['scheduler.policy=fcfs']));
  // A to its end at once (the hook's step stops there), B following it to A's last moment
  await page.evaluate(() => window.fairground.step(1_000_000));
  const [cliA, cliB] = await cli;
  // the case the tester met: B (fcfs) goes on after A (dlpm) has ended
  expect(cliB.sim_time_s).toBeGreaterThan(cliA.sim_time_s);
  const play = page.getByRole('button', { name: 'Play' });
  const step = page.getByRole('button', { name: 'Step' });
  await expect.poll(() => page.evaluate(() => window.fairground.state().done)).toBe(true);
  const ui = await page.evaluate(() => window.fairground.state());
  expect(ui.decisionCount).toBe(cliA.decisions);
  expect(ui.simTime).toBe(cliA.sim_time_s);
  await expect.poll(() => page.evaluate(() => window.fairground.compareState().simTimeB)).toBe(ui.simTime);
  const atEndOfA = await page.evaluate(() => window.fairground.compareState().decisionsB);
  expect(atEndOfA).toBeLessThan(cliB.decisions);
  // A is over, B is not: the transport stays on, and Step moves B alone
  await expect(play).toBeEnabled();
  await expect(step).toBeEnabled();
  const diff = page.getByRole('region', { name: 'Difference' });
  await expect(diff.getByTestId('diff-moment')).toContainText("B's figures are not final yet");
  await step.click();
  await expect
    .poll(() => page.evaluate(() => window.fairground.compareState().decisionsB))
    .toBe(atEndOfA + 1);
  expect(await page.evaluate(() => window.fairground.state().decisionCount)).toBe(cliA.decisions);
  // Play (fastest speed) runs B on to its own end, then both are over
  const slider = page.getByRole('slider', { name: 'Speed' });
  await slider.fill((await slider.getAttribute('max')) ?? '10');
  await play.click();
  await expect(play).toBeDisabled();
  await expect(step).toBeDisabled();
  // both greyed out, and each says why (Step used to still offer 'One scheduling decision forward')
  await expect(play).toHaveAttribute('title', /run is over/);
  await expect(step).toHaveAttribute('title', /run is over/);
  expect(await page.evaluate(() => window.fairground.compareState())).toMatchObject({
    decisionsB: cliB.decisions,
    simTimeB: cliB.sim_time_s,
  });
  expect(await page.evaluate(() => window.fairground.state().decisionCount)).toBe(cliA.decisions);

  await expect(diff.getByTestId('diff-moment')).toContainText('Both runs are over');
  const want = expectedRows(cliA, cliB);
  const got = await diff
    .locator('table.diff-table tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => [
        tr.getAttribute('data-row') ?? '',
        ...[...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''),
      ]),
    );
  const byKey = Object.fromEntries(got.map(([key, a, b, delta]) => [key, { a, b, delta }]));
  for (const [key, cells] of Object.entries(want)) expect(byKey[key], key).toEqual(cells);
  // the tester's figures: B's alice TTFT p50 is the CLI's 0.716 s (not 735 ms); the run's Jain's
  // index (A 0.440 as Figures and run --json say, not the 0.4484 measured since every client's first
  // request); the cache hit rate's difference in percentage points
  expect(byKey['ttft50:alice'].b).toBe('716 ms');
  expect(byKey.jain.a).toMatch(/^0\.440/);
  expect(byKey.cache.delta).toMatch(/ pp$/);
});

test('A link made late in run B, after A has ended, reopens each run at its own time, bit for bit; a long seek says where it goes (first-time user)', async ({
  page,
  context,
}) => {
  test.slow(); // two replays of two minutes' arrivals each
  await openPlain(page);
  // a longer default run: A (dlpm) ends first, B (fcfs) plays on after it. Two minutes of arrivals
  // make A's replay in the new page 18,000 decisions, seconds long even on a fast machine, so the
  // hint (shown once a seek has run 300 ms) is always up when the check looks for it; 15 s of
  // arrivals (3,600 decisions) could end before it.
  await page.evaluate(
    (t) => window.fairground.load(t),
    DEFAULT_TEXT.replace('duration_s: 60', 'duration_s: 120'),
  );
  await page.evaluate(() => window.fairground.compare(['scheduler.policy=fcfs']));
  await page.evaluate(() => window.fairground.step(1_000_000));
  const a = await page.evaluate(() => window.fairground.state());
  expect(a.done).toBe(true);
  await expect.poll(() => page.evaluate(() => window.fairground.compareState().simTimeB)).toBe(a.simTime);
  // B goes on by itself (1.8 s of its run after A's end): Step once, then 10 more
  await page.getByRole('button', { name: 'Step' }).click();
  await page.evaluate(() => window.fairground.step(10));
  const b = await page.evaluate(() => window.fairground.compareState());
  expect(b.simTimeB).toBeGreaterThan(a.simTime);
  const snapB = await page.evaluate(() => window.fairground.snapshotB());

  // what a person sees: each run's decisions and clock, the Difference heading and table
  const seen = async (p: typeof page) => ({
    a: await p.locator('.compare-count[data-side="A"]').textContent(),
    b: await p.locator('.compare-count[data-side="B"]').textContent(),
    heading: await p.getByRole('region', { name: 'Difference' }).getByRole('heading').textContent(),
    table: await p.getByRole('region', { name: 'Difference' }).locator('table.diff-table tbody').innerText(),
  });
  const before = await seen(page);
  expect(before.a).toContain(`run over at ${a.simTime.toFixed(3)} s`);
  expect(before.b).toContain(`at ${b.simTimeB.toFixed(3)} s, going on`);
  expect(before.heading).toContain(`A at its end, B at ${b.simTimeB.toFixed(3)} s`);

  // the address bar follows B too, and holds the same link as Share
  await expect(page.locator('html')).toHaveAttribute('data-live-address', 'current');
  const live = page.url();
  await page.getByRole('button', { name: 'Share' }).click();
  const link = await page.getByRole('textbox', { name: 'Share link' }).inputValue();
  expect(live).toBe(link);

  const other = await context.newPage();
  await other.goto(link);
  // A replays to its end from t = 0: a seek long enough for the hint, which says where it goes
  await expect(other.getByRole('status').filter({ hasText: 'seeking to decision' })).toBeVisible();
  // both replays (18,000 and 17,669 decisions) can take more than the default 10 s on a loaded machine
  await expect(other.locator('.compare-count[data-side="B"]')).toHaveText(before.b ?? '', {
    timeout: 45_000,
  });
  await expect(other.getByTestId('seek-hint')).not.toHaveClass(/\bon\b/, { timeout: 45_000 });
  expect(await seen(other)).toEqual(before);
  expect(await other.evaluate(() => window.fairground.compareState())).toMatchObject({
    simTimeB: b.simTimeB,
    decisionsB: b.decisionsB,
  });
  expect(await other.evaluate(() => window.fairground.snapshotB())).toEqual(snapB);
  await other.close();
});

// Presentation mode shows one run. In Compare, P and Present were stored but did nothing, and the
// page sprang into presentation mode once Compare was left; now they say what to do instead.
test('P or Present in Compare says to leave Compare first, and nothing springs on after it', async ({
  page,
}) => {
  await compareAsIs(page);
  const app = page.locator('.app');
  await page.keyboard.press('p');
  await expect(page.getByText('Presentation mode shows one run')).toBeVisible();
  await page.getByRole('button', { name: 'Present' }).click();
  await expect(page.getByRole('button', { name: 'Present' })).toHaveAttribute('aria-pressed', 'false');
  await expect(app).toHaveAttribute('data-presenting', 'off');
  await page.getByRole('button', { name: 'Exit compare' }).click();
  await expect(page.getByRole('region', { name: /^B:/ })).toHaveCount(0);
  await expect(app).toHaveAttribute('data-presenting', 'off');
  // outside Compare, P presents as before
  await page.keyboard.press('p');
  await expect(app).toHaveAttribute('data-presenting', 'on');
});

// A Compare link with ?present=1 opened presentation mode's state hidden behind Compare, and the page
// sprang into it once Compare was left; now the link opens in Compare with the reason, and stays so.
test('a Compare link with ?present=1 opens in Compare, says why it does not present, and leaving Compare does not present', async ({
  page,
  context,
}) => {
  await compareAsIs(page);
  await page.getByRole('button', { name: 'Share' }).click();
  const link = new URL(await page.getByRole('textbox', { name: 'Share link' }).inputValue());
  link.searchParams.set('present', '1');

  const other = await context.newPage();
  await other.goto(link.toString());
  await expect(other.getByRole('region', { name: /^B:/ })).toBeVisible();
  await expect(other.getByText('Presentation mode shows one run')).toBeVisible();
  const app = other.locator('.app');
  await expect(app).toHaveAttribute('data-presenting', 'off');
  expect(new URL(other.url()).searchParams.get('present')).toBeNull();
  await other.getByRole('button', { name: 'Exit compare' }).click();
  await expect(other.getByRole('region', { name: /^B:/ })).toHaveCount(0);
  await expect(app).toHaveAttribute('data-presenting', 'off');
  await other.close();
});

// The lecture tryout: Compare on a DRR sandbox showed deficits and queue lengths, all 0 at a script's
// end, not what differs between the runs: who was served, in what order.
test('Compare in a DRR sandbox says where the two dispatch orders first differ and what each class took', async ({
  page,
}) => {
  await openPlain(page);
  await pickScenario(page, 'drr-burst');
  // (the pick's decision count reads 0 before the sandbox has replaced the cluster run)
  await expect.poll(() => page.evaluate(() => window.fairground.state().kind)).toBe('arbitration');
  await page.evaluate(() => window.fairground.compare(['policy.policy_classes[0].quantum=4']));
  await page.evaluate(() => window.fairground.runUntil(100));
  const diff = page.getByRole('region', { name: 'Difference' });
  await expect(diff.getByTestId('dispatch-difference')).toContainText(
    'They first serve differently at take 2: run A takes a1 (class A), run B takes b0 (class B).',
  );
  await expect(diff.locator('tr[data-row="taken:A"]')).toContainText('A taken');
});
