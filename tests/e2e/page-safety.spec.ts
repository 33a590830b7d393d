import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import {
  BURST_TEXT,
  DEFAULT_TEXT,
  editorReady,
  open,
  openImport,
  openPlain,
  pasteInto,
  tinyScript,
} from './helpers';

/** Page errors, unhandled rejections (as console errors) and CSP violations seen by a page. */
function watch(page: import('@playwright/test').Page) {
  const seen: string[] = [];
  page.on('pageerror', (e) => seen.push(`pageerror: ${e.name}: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') seen.push(`console: ${m.text()}`);
  });
  return seen;
}

test('switching file kinds in the editor (scenario → DRR script → scenario) throws nothing', async ({
  page,
}) => {
  const seen = watch(page);
  await open(page);
  await page.getByRole('tab', { name: /Scenario/ }).click();
  expect(await editorReady(page, 'scenario')).toBe('monaco');
  for (const text of [BURST_TEXT, DEFAULT_TEXT, BURST_TEXT, DEFAULT_TEXT]) {
    await pasteInto(page, 'Scenario editor', text);
    const kind = text === BURST_TEXT ? 'arbitration' : 'cluster';
    await expect.poll(() => page.evaluate(() => window.fairground.state().kind)).toBe(kind);
    // hover asks the language worker something, so a swap has requests in flight to cancel
    await page.getByRole('region', { name: 'Scenario editor' }).locator('.view-line').first().hover();
  }
  // let the language worker answer (or be cancelled) before looking
  await expect.poll(() => page.evaluate(() => window.fairground.editor.markers('scenario').length)).toBe(0);
  expect(seen).toEqual([]);
  await expect(page.getByRole('alert').filter({ hasText: 'Something went wrong' })).toHaveCount(0);
});

test('an unexpected error becomes a visible, recoverable message and the text is kept', async ({ page }) => {
  await open(page);
  const before = await page.evaluate(() => window.fairground.state().kind);
  await page.evaluate(() => {
    void Promise.reject(new Error('boom from a test'));
  });
  const alert = page.getByRole('alert').filter({ hasText: 'Something went wrong: boom from a test' });
  await expect(alert).toBeVisible();
  await expect(alert.getByRole('button', { name: 'Download your text' })).toBeVisible();
  await page.evaluate(() => {
    setTimeout(() => {
      throw new TypeError('thrown later');
    }, 0);
  });
  await expect(page.getByRole('alert').filter({ hasText: 'TypeError: thrown later' })).toBeVisible();
  // the page goes on: the run still steps, and the message can be dismissed
  await page.getByRole('button', { name: 'Step' }).click();
  await expect.poll(() => page.evaluate(() => window.fairground.state().decisionCount)).toBeGreaterThan(0);
  expect(await page.evaluate(() => window.fairground.state().kind)).toBe(before);
  await page.getByRole('button', { name: 'Dismiss error' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Something went wrong' })).toHaveCount(0);
});

test('the built page has a Content-Security-Policy: own origin only, no inline script, Monaco works', async ({
  page,
}) => {
  const html = readFileSync('dist/index.html', 'utf8');
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html);
  expect(meta).not.toBeNull();
  const policy = (meta?.[1] ?? '').replace(/&#39;/g, "'");
  const directives = new Map(
    policy.split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name, values] as const;
    }),
  );
  expect(directives.get('default-src')).toEqual(["'self'"]);
  expect(directives.get('script-src')).toEqual(["'self'"]);
  expect(directives.get('worker-src')).toEqual(["'self'", 'blob:']);
  expect(directives.get('connect-src')).toEqual(["'self'"]);
  expect(directives.get('object-src')).toEqual(["'none'"]);
  // no source anywhere names a remote origin
  for (const values of directives.values()) for (const v of values) expect(v).not.toMatch(/^(https?:|\*|ws)/);
  // the built page has no inline script
  expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);

  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __csp: string[] }).__csp ??= [];
      (window as unknown as { __csp: string[] }).__csp.push(
        `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`,
      );
    });
  });
  await open(page);
  await page.getByRole('tab', { name: /Scenario/ }).click();
  expect(await editorReady(page, 'scenario')).toBe('monaco');
  // Monaco's language worker runs under the policy: a schema error gets its marker
  await pasteInto(page, 'Scenario editor', DEFAULT_TEXT.replace(/^seed:.*$/m, 'seed: not-a-number'));
  await expect
    .poll(() => page.evaluate(() => window.fairground.editor.markers('scenario').length), { timeout: 20_000 })
    .toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Step' }).click();
  expect(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])).toEqual([]);
  expect(violations).toEqual([]);
  // an injected inline script does not run
  const ran = await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__injected = true';
    document.body.append(s);
    return (window as unknown as { __injected?: boolean }).__injected === true;
  });
  expect(ran).toBe(false);
});

test('a paste too large for localStorage (6 MB) is kept in IndexedDB and survives a reload', async ({
  page,
}) => {
  await page.goto('./?editor=plain');
  await page.waitForFunction(() => window.fairground?.state?.().kind === 'cluster');
  await expect.poll(() => page.evaluate(() => window.fairground.editor.mode('scenario'))).toBe('textarea');
  // a valid scenario with a 6-million-character comment: far over localStorage's ~5 MB quota
  const big = `${DEFAULT_TEXT}\n# ${'x'.repeat(6_000_000)}\n`;
  await page.evaluate((t) => window.fairground.editor.setText('scenario', t), big);
  await expect
    .poll(() => page.evaluate(() => localStorage.getItem('fairground:edits')))
    .toBe('{"fairground:in":"indexeddb"}');
  await expect(page.getByRole('alert').filter({ hasText: 'could not be saved' })).toHaveCount(0);
  await page.reload();
  await page.waitForFunction(() => window.fairground?.state?.().kind === 'cluster');
  await expect
    .poll(() => page.evaluate(() => window.fairground.editor.text('scenario').length), { timeout: 20_000 })
    .toBe(big.length);
});

test('a 50 MB paste into the plain editor is held, not laid out: the page answers, the text is kept and saved', async ({
  page,
}) => {
  const seen = watch(page);
  await page.goto('./?editor=plain');
  await page.waitForFunction(() => window.fairground?.state?.().kind === 'cluster');
  await page.getByRole('tab', { name: /Scenario/ }).click();
  expect(await editorReady(page, 'scenario')).toBe('textarea');
  // put in the textarea, 50 MB froze Chromium for 12–16 s laying it out
  await pasteInto(page, 'Scenario editor', `${DEFAULT_TEXT}\n# ${'y'.repeat(50_000_000)}\n`);
  const region = page.getByRole('region', { name: 'Scenario editor' });
  const note = region.getByRole('alert').filter({ hasText: 'too long to show here' });
  await expect(note).toContainText('50.0 million characters');
  await expect(region.locator('textarea')).toBeHidden();
  expect(await region.locator('textarea').inputValue()).toBe('');
  // kept whole, checked (the document limit, at the editor's text), and the page still answers
  const length = DEFAULT_TEXT.length + 50_000_004;
  expect(await page.evaluate(() => window.fairground.editor.text('scenario').length)).toBe(length);
  await expect(
    region.getByRole('button', {
      name: /too long: the document is [0-9,]+ characters; the limit is 1,000,000/,
    }),
  ).toBeVisible({ timeout: 20_000 });
  await expect
    .poll(() => page.evaluate(() => localStorage.getItem('fairground:edits')), { timeout: 20_000 })
    .toBe('{"fairground:in":"indexeddb"}');
  const download = page.waitForEvent('download');
  await note.getByRole('button', { name: 'Download this text' }).click();
  expect((await download).suggestedFilename()).toBe('fairground-scenario.yaml');
  // a fresh start gives the textarea back, empty and focused
  await note.getByRole('button', { name: 'Start over with an empty text' }).click();
  await expect(region.locator('textarea')).toBeFocused();
  expect(await page.evaluate(() => window.fairground.editor.text('scenario'))).toBe('');
  await expect(note).toBeHidden();
  expect(seen).toEqual([]);
});

test('when the browser can keep the text nowhere, the editor says so and offers a download', async ({
  page,
}) => {
  await page.addInitScript(() => {
    Storage.prototype.setItem = () => {
      throw new DOMException('quota exceeded', 'QuotaExceededError');
    };
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ..._args: Parameters<typeof put>) {
      throw new DOMException('the disk is full', 'QuotaExceededError');
    };
  });
  await page.goto('./?editor=plain');
  await page.waitForFunction(() => window.fairground?.state?.().kind === 'cluster');
  await page.evaluate((t) => window.fairground.editor.setText('scenario', t), `${DEFAULT_TEXT}\n# edited\n`);
  const note = page.getByRole('alert').filter({ hasText: 'could not be saved in this browser' });
  await expect(note).toBeVisible();
  await expect(note).toContainText('QuotaExceededError');
  const download = page.waitForEvent('download');
  await note.getByRole('button', { name: 'Download your text' }).click();
  expect((await download).suggestedFilename()).toBe('fairground-edits.yaml');
});

test('a storage that never answers does not hang start-up: the page opens and says the edits were not restored', async ({
  page,
}) => {
  await page.addInitScript(() => {
    // the remembered texts live in IndexedDB, and IndexedDB never answers (as in some blocked frames)
    localStorage.setItem('fairground:edits', '{"fairground:in":"indexeddb"}');
    IDBFactory.prototype.open = () => ({}) as IDBOpenDBRequest;
  });
  await page.goto('./');
  await page.waitForFunction(() => window.fairground?.state?.().kind === 'cluster', undefined, {
    timeout: 20_000,
  });
  await expect(page.getByRole('alert').filter({ hasText: 'did not answer in time' })).toBeVisible();
  await page.getByRole('button', { name: 'Step' }).click();
  await expect.poll(() => page.evaluate(() => window.fairground.state().decisionCount)).toBe(1);
});

test('a run asked for while the storage is still answering stands: the start-up restore gives way to it', async ({
  page,
}) => {
  await page.addInitScript(() => {
    // IndexedDB never answers, so the start-up open waits out its whole timeout (2.5 s)
    localStorage.setItem('fairground:edits', '{"fairground:in":"indexeddb"}');
    IDBFactory.prototype.open = () => ({}) as IDBOpenDBRequest;
  });
  await page.goto('./?editor=plain');
  await page.waitForFunction(() => typeof window.fairground?.load === 'function');
  const script = tinyScript('Asked for meanwhile');
  await page.evaluate((t) => window.fairground.load(t), script);
  const heading = page.getByRole('heading', { name: 'Asked for meanwhile' });
  await expect(heading).toBeVisible();
  // past the storage's timeout, when the start-up open would have replaced it with the last scenario
  await page.waitForTimeout(3500);
  await expect(heading).toBeVisible();
  expect(await page.evaluate(() => window.fairground.state().kind)).toBe('arbitration');
});

test('a spec file picked in Import is size-checked before it is read: too large says so, a small one fills the box', async ({
  page,
}) => {
  const seen = watch(page);
  await page.goto('./?editor=plain');
  await page.waitForFunction(() => window.fairground?.state?.().kind === 'cluster');
  const dialog = await openImport(page);
  // read whole into the text box, a 200 MB file hung the tab for minutes
  await dialog.getByLabel('Workload spec file').setInputFiles({
    name: 'huge-spec.yaml',
    mimeType: 'text/yaml',
    buffer: Buffer.alloc(5_000_000, 'x: 1\n'),
  });
  const notes = dialog.getByRole('region', { name: 'Import notes' });
  await expect(notes).toContainText('huge-spec.yaml: not read: it is 5.0 MB; the limit is 4.0 MB');
  await expect(dialog.getByRole('textbox', { name: 'BLIS workload spec' })).toHaveValue('');
  await dialog.getByLabel('Workload spec file').setInputFiles({
    name: 'small.yaml',
    mimeType: 'text/yaml',
    buffer: Buffer.from('version: "2"\n'),
  });
  await expect(dialog.getByRole('textbox', { name: 'BLIS workload spec' })).toHaveValue('version: "2"\n');
  expect(seen).toEqual([]);
});

test('a text with 45,000 problems lists the first 500 and counts the rest, so the page stays responsive', async ({
  page,
}) => {
  await page.goto('./?editor=plain');
  await page.waitForFunction(() => window.fairground?.state?.().kind === 'cluster');
  // 15,000 scripted requests with three bad values each: listed one button per problem, the list
  // blocked the page for ~2.5 s after every edit
  await page.getByRole('tab', { name: /Scenario/ }).click();
  const bad = '  - {t: -1, client: zz, prompt_tokens: -5, output_tokens: x}\n'.repeat(15_000);
  await page.evaluate(
    (t) => window.fairground.editor.setText('scenario', t),
    `${DEFAULT_TEXT}requests:\n${bad}`,
  );
  const list = page.getByRole('list', { name: 'Scenario problems' });
  await expect(list.getByRole('listitem').last()).toHaveText(
    '… and 44,500 more (the editor marks them all; fix these first)',
    { timeout: 20_000 },
  );
  await expect(list.getByRole('listitem')).toHaveCount(501);
  await expect(page.getByRole('button', { name: /45000 problems/ })).toBeVisible();
  expect(await page.evaluate(() => window.fairground.editor.markers('scenario').length)).toBe(45_000);
});

test('a run too large for a link that opens is not shared: Share says why, the address bar is left alone', async ({
  page,
}) => {
  // 810k characters of comments that do not compress: a valid scenario, but its link would be ~700k
  // characters, which decodeShare refuses (the page used to write it to the address bar and offer it)
  await openPlain(page);
  const before = await page.evaluate(() => location.hash);
  await page.evaluate(() => {
    const ta = document.querySelector('textarea[aria-label="Scenario editor"]') as HTMLTextAreaElement;
    let x = 1;
    const lines: string[] = [];
    for (let i = 0; i < 9000; i++) {
      let l = '# ';
      for (let j = 0; j < 90; j++) {
        x = (Math.imul(x, 1103515245) + 12345) >>> 0;
        l += String.fromCharCode(97 + ((x >>> 16) % 26));
      }
      lines.push(l);
    }
    const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set;
    setter?.call(ta, `${ta.value}\n${lines.join('\n')}\n`);
    ta.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page
    .getByRole('button', { name: /^Share/ })
    .first()
    .click();
  await expect(
    page.getByText(/This run cannot be shared as a link: its link would be [\d\u202f]+ characters long/),
  ).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Share link' })).toHaveCount(0);
  expect((await page.evaluate(() => location.hash)).length).toBeLessThanOrEqual(before.length + 100);
  // the message says to send the texts as a file: the way to is beside it (it named "the editor's
  // Download", a button the editor only shows when it cannot save), and it is the texts in the editors
  const banner = page.getByRole('alert').filter({ hasText: 'cannot be shared as a link' });
  const download = page.waitForEvent('download');
  await banner.getByRole('button', { name: 'Download the texts' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('fairground-edits.yaml');
  const saved = Buffer.concat(await (await file.createReadStream()).toArray()).toString('utf8');
  const scenario = await page.evaluate(() => window.fairground.editor.text('scenario'));
  expect(saved.startsWith(scenario)).toBe(true);
  expect(scenario.length).toBeGreaterThan(800_000);
});
