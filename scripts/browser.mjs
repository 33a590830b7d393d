// Which Chromium the browser tests use: $FAIRGROUND_CHROMIUM, else Debian's /usr/bin/chromium, else
// Playwright's own download (on a developer laptop that ran `npx playwright install chromium`).
import { existsSync } from 'node:fs';

export function findChromium() {
  const candidates = [
    process.env.FAIRGROUND_CHROMIUM,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
  ].filter(Boolean);
  return candidates.find((p) => existsSync(p)) ?? null;
}
