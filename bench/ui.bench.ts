/**
 * The playground in a real browser: builds dist/ if it is missing, serves it with `vite preview` on a
 * free port, and drives it with Playwright's Chromium (the same executable choice as the e2e tests).
 *
 * - ui.time_to_play_ms: navigation start → the default scenario's first decision after pressing Play;
 * - while the heaviest shipped scenario plays at full speed for 10 s:
 *   ui.frame_p95_ms (rAF intervals), ui.long_task_max_ms (PerformanceObserver 'longtask'),
 *   ui.frame_bytes (largest frame the worker sent);
 * - ui.initial_js_kb_gz: the JS the page loads before anything lazy (Monaco is lazy), gzipped.
 */
import { type ChildProcess, execSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
// @ts-expect-error plain ESM helper shared with the pretest script
import { findChromium } from '../scripts/browser.mjs';
import type { Figure } from './types';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const PLAY_MS = 10_000;
/** The heaviest shipped scenario (8 workers, 600 s of Tree-of-Thoughts traffic). */
const HEAVY = 'bench-tot-100k';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    if (Date.now() > until) throw new Error(`vite preview did not answer at ${url}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Gzipped size of the scripts index.html loads up front (entry + modulepreloads). */
export function initialJsKbGz(distDir: string): number {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const srcs = new Set<string>();
  for (const m of html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)) srcs.add(m[1]);
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) srcs.add(m[1]);
  let bytes = 0;
  for (const src of srcs) bytes += gzipSync(readFileSync(join(distDir, src.replace(/^\.?\//, '')))).length;
  return bytes / 1024;
}

function p95(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))];
}

export default async function uiBench(): Promise<Figure[]> {
  if (!existsSync(join(dist, 'index.html'))) execSync('npx vite build', { cwd: root, stdio: 'inherit' });
  const port = await freePort();
  const server: ChildProcess = spawn(
    'npx',
    ['vite', 'preview', '--port', String(port), '--strictPort', '--host', '127.0.0.1'],
    { cwd: root, stdio: 'ignore', detached: true },
  );
  const base = `http://127.0.0.1:${port}/`;
  const executablePath: string | undefined = findChromium() ?? undefined;
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    await waitForHttp(base, 30_000);
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    await page.addInitScript(() => {
      const w = window as unknown as { __longTasks: { start: number; duration: number }[] };
      w.__longTasks = [];
      try {
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) w.__longTasks.push({ start: e.startTime, duration: e.duration });
        }).observe({ type: 'longtask', buffered: true });
      } catch {
        /* no longtask support */
      }
    });

    // Time to play: the default scenario, from navigation start to its first decision after Play.
    await page.goto(base);
    const play = page.getByRole('button', { name: 'Play' });
    await play.click();
    await page.waitForFunction(() => window.fairground?.state().decisionCount > 0, undefined, {
      polling: 'raf',
    });
    const timeToPlay = await page.evaluate(() => performance.now());
    await page.getByRole('button', { name: 'Pause' }).click();

    // The heaviest scenario at full speed.
    await page.getByRole('combobox', { name: 'Scenario' }).selectOption(HEAVY);
    await page.waitForFunction(
      () => window.fairground.state().decisionCount === 0 && window.fairground.state().kind === 'cluster',
    );
    const speed = page.getByRole('slider', { name: 'Speed' });
    await speed.fill(await speed.getAttribute('max').then((m) => m ?? '10'));
    // let the lazily loaded editor finish starting up: its start-up is not part of playing
    await page
      .waitForFunction(() => window.fairground.editor.mode('policy') !== 'loading', undefined, {
        timeout: 15_000,
      })
      .catch(() => {});
    await page.waitForTimeout(1000);
    const startMark = await page.evaluate(() => performance.now());
    await page.getByRole('button', { name: 'Play' }).click();
    // A string, not a function: the bench runs under tsx, whose helpers do not exist in the page.
    const frames = (await page.evaluate(`new Promise((resolve) => {
      const out = [];
      let last = performance.now();
      const end = last + ${PLAY_MS};
      function tick(now) {
        out.push(now - last);
        last = now;
        if (now < end) requestAnimationFrame(tick);
        else resolve(out);
      }
      requestAnimationFrame(tick);
    })`)) as number[];
    const played = await page.evaluate(() => window.fairground.state());
    await page.keyboard.press('Space').catch(() => {});
    const longTasks = await page.evaluate(
      (t0) =>
        (window as unknown as { __longTasks: { start: number; duration: number }[] }).__longTasks
          .filter((e) => e.start >= t0)
          .map((e) => e.duration),
      startMark,
    );
    const stats = await page.evaluate(() => window.fairground.frameStats());
    const note = `${HEAVY}: ${played.decisionCount.toLocaleString('en-US')} decisions, ${played.simTime.toFixed(1)} s simulated in ${PLAY_MS / 1000} s`;
    return [
      { name: 'ui.frame_p95_ms', value: p95(frames.slice(1)), unit: 'ms', target: '≤ 20', note },
      {
        name: 'ui.long_task_max_ms',
        value: longTasks.length ? Math.max(...longTasks) : 0,
        unit: 'ms',
        target: '≤ 100',
        note: `${longTasks.length} long task(s) while playing`,
      },
      {
        name: 'ui.frame_bytes',
        value: stats.maxFrameBytes,
        unit: 'B',
        target: '≤ 262144',
        note: 'largest frame',
      },
      {
        name: 'ui.initial_js_kb_gz',
        value: initialJsKbGz(dist),
        unit: 'KB',
        target: '≤ 300',
        note: 'without Monaco (lazy)',
      },
      {
        name: 'ui.time_to_play_ms',
        value: timeToPlay,
        unit: 'ms',
        target: '≤ 1500',
        note: 'navigation → first decision',
      },
    ];
  } finally {
    await browser.close();
    if (server.pid) {
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        server.kill('SIGTERM');
      }
    }
  }
}
