import { defineConfig } from '@playwright/test';
// @ts-expect-error plain ESM helper shared with the pretest script
import { findChromium } from './scripts/browser.mjs';

const executablePath: string | undefined = findChromium() ?? undefined;
// FAIRGROUND_E2E_PORT lets two checkouts run their browser tests side by side.
const port = Number(process.env.FAIRGROUND_E2E_PORT ?? 4173);

export default defineConfig({
  testDir: 'tests/e2e',
  // Text snapshots (normalised SVG) are the same on every platform: no OS suffix in their names.
  snapshotPathTemplate: '{testDir}/__snapshots__/{testFilePath}/{arg}{ext}',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    // One browser context per worker, reset between tests (Playwright's reuseContext: storage,
    // cookies and cache cleared, extra pages closed, viewport and media emulation re-applied, the
    // page back at about:blank): each test still opens a new document of the app, but in a warm
    // renderer, which halves the cost of a page load (new context and load ~4 CPU-s, ~2 reused). A
    // test that changes a context-only option (deviceScaleFactor, isMobile, hasTouch) gets a fresh
    // context, as before.
    reuseContext: true,
    // The preview server gzips every asset on each request (~7 MB a page load, ~0.2 CPU-s of the
    // server's): the tests ask for them as they are. The page is the same either way.
    extraHTTPHeaders: { 'Accept-Encoding': 'identity' },
    baseURL: `http://127.0.0.1:${port}/`,
    viewport: { width: 1366, height: 768 },
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    },
  },
  webServer: {
    command: `npx vite preview --port ${port} --strictPort --host 127.0.0.1`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
