// Pre-step of the browser tests: make sure a Chromium exists. On a fresh Debian machine as root it
// installs Debian's chromium package; anywhere else it explains what to do.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { findChromium } from './browser.mjs';

async function playwrightOwnChromium() {
  try {
    const { chromium } = await import('@playwright/test');
    const p = chromium.executablePath();
    return p && existsSync(p) ? p : null;
  } catch {
    return null;
  }
}

const found = findChromium() ?? (await playwrightOwnChromium());
if (found) {
  console.log(`browser tests: using ${found}`);
  process.exit(0);
}
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = existsSync('/usr/bin/apt-get');
if (isRoot && hasApt) {
  console.log('browser tests: no Chromium found; installing Debian chromium with apt-get (one time)...');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execSync('apt-get update -qq', { stdio: 'inherit', env });
  execSync('apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core', {
    stdio: 'inherit',
    env,
  });
  if (findChromium()) process.exit(0);
}
console.error(
  [
    'browser tests: no Chromium found.',
    '  Debian/Ubuntu: sudo apt-get install -y chromium',
    '  elsewhere:     npx playwright install chromium',
    '  or point FAIRGROUND_CHROMIUM at a Chromium/Chrome binary.',
  ].join('\n'),
);
process.exit(1);
