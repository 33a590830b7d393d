import { expect, test } from '@playwright/test';
import { editorReady, open, pasteInto } from './helpers';

const MATRIX = `default_policy_family: standard
uncached_isl_buckets:
  - {min_tokens: 0, bucket: cached}
  - {min_tokens: 3072, bucket: uncached}
policy_classes:
  - name: cached
    policy_family: standard
    cache_bucket: cached
    quantum: 2048
  - name: uncached
    policy_family: standard
    cache_bucket: uncached
    quantum: 512
`;

test('the policy editor names the Dynamo releases a pasted file is valid for; one syntax slip is one marker', async ({
  page,
}) => {
  await open(page);
  await page.getByRole('tab', { name: 'Policy' }).click();
  expect(await editorReady(page, 'policy')).toBe('monaco');
  const region = page.getByRole('region', { name: 'Policy editor' });
  const releases = region.getByRole('note', { name: 'Dynamo releases' });

  await pasteInto(page, 'Policy editor', MATRIX);
  await expect(releases).toHaveText(/Valid for Dynamo v1\.3\.0 – v1\.6\.1/);

  await pasteInto(page, 'Policy editor', `${MATRIX}worker_selection: {aggregated: default}\n`);
  await expect(releases).toHaveText(/Valid for Dynamo v1\.5\.0 – v1\.6\.1/);
  await expect(region.getByRole('list', { name: 'Not simulated in the playground' })).toContainText(
    'worker_selection',
  );

  await pasteInto(
    page,
    'Policy editor',
    'default_policy_class: agents\npolicy_classes:\n  - {name: agents, slo_ms: 600000, quantum: 10}\n',
  );
  await expect(releases).toHaveText(/unreleased flat\/SLO format/);

  // One line indented one space too little: one message, the same as the CLI's, and no other markers.
  await pasteInto(page, 'Policy editor', MATRIX.replace('    quantum: 2048', '   quantum: 2048'));
  await expect
    .poll(() => page.evaluate(() => window.fairground.editor.markers('policy')))
    .toEqual([expect.objectContaining({ line: 9, owner: 'fairground' })]);
  await expect(page.getByRole('tab', { name: 'Policy (1)' })).toBeVisible();
});

test('the policy editor says which Dynamo release the loaded run follows', async ({ page }) => {
  await open(page);
  await page.getByRole('tab', { name: 'Policy' }).click();
  const region = page.getByRole('region', { name: 'Policy editor' });
  // the default scenario leaves router.dynamo_release at its default, v1.6
  await expect(
    region.getByText(
      "This run follows Dynamo v1.6's queue, the default: the scenario sets no router.dynamo_release.",
    ),
  ).toBeVisible();
  const text = await page.evaluate(() => window.fairground.editor.text('scenario'));
  await page.evaluate(
    (t) => window.fairground.load(t.replace(/^router:\n/m, 'router:\n  dynamo_release: v1.4\n')),
    text,
  );
  await expect(
    region.getByText("This run follows Dynamo v1.4's queue, as the scenario's router.dynamo_release says."),
  ).toBeVisible();
});
