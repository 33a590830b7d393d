/**
 * The two guards of the layering (#12): `npm run lint` runs dependency-cruiser with
 * .dependency-cruiser.cjs, `npm run typecheck` compiles src/core once more with tsconfig.core.json
 * (no DOM library). Each guard is checked here on a throwaway tree that breaks it, and on one that
 * does not, so a config that stops catching the mistake fails this test.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const root = join(dirname(new URL(import.meta.url).pathname), '../../..');
const dirs: string[] = [];

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'fairground-layers-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function violations(dir: string): Promise<string[]> {
  const { cruise } = await import('dependency-cruiser');
  const config = require(join(root, '.dependency-cruiser.cjs')) as { forbidden: never[] };
  const r = await cruise(['src'], {
    ruleSet: { forbidden: config.forbidden },
    baseDir: dir,
    tsPreCompilationDeps: true,
    validate: true,
  });
  const out = r.output as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
  return out.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
}

describe('import rules (npm run lint)', () => {
  it('fail when core imports the UI, the formats or a UI library, and pass the right direction', async () => {
    const dir = tree({
      'src/core/a.ts': "import { x } from '../ui/b';\nexport const a = x;\n",
      'src/core/c.ts': "import type { S } from '../scenario/s';\nexport const c = (s: S) => s;\n",
      'src/ui/b.ts': "import { d } from '../core/d';\nexport const x = d;\n",
      'src/scenario/s.ts': "import { d } from '../core/d';\nexport type S = typeof d;\n",
      'src/core/d.ts': 'export const d = 1;\n',
      'src/worker/w.ts': "import { x } from '../ui/b';\nexport const w = x;\n",
    });
    expect((await violations(dir)).sort()).toEqual([
      'core-is-the-bottom-layer: src/core/a.ts -> src/ui/b.ts',
      'core-is-the-bottom-layer: src/core/c.ts -> src/scenario/s.ts',
      'worker-below-the-ui: src/worker/w.ts -> src/ui/b.ts',
    ]);
  }, 30_000);

  it('fail for a core import of each higher layer, type-only imports included', async () => {
    const layers = ['scenario', 'ui', 'worker', 'state', 'format', 'policy'];
    const files: Record<string, string> = {};
    for (const l of layers) {
      files[`src/${l}/m.ts`] = 'export type M = number;\n';
      files[`src/core/uses-${l}.ts`] = `import type { M } from '../${l}/m';\nexport const v = (m: M) => m;\n`;
    }
    expect((await violations(tree(files))).sort()).toEqual(
      layers.map((l) => `core-is-the-bottom-layer: src/core/uses-${l}.ts -> src/${l}/m.ts`).sort(),
    );
  }, 30_000);
});

describe('core without the DOM (npm run typecheck)', () => {
  function diagnostics(code: string): string[] {
    const cfgPath = join(root, 'tsconfig.core.json');
    const cfg = ts.readConfigFile(cfgPath, ts.sys.readFile);
    const parsed = ts.parseJsonConfigFileContent(cfg.config, ts.sys, root);
    const dir = tree({ 'src/core/probe.ts': code });
    const file = join(dir, 'src/core/probe.ts');
    const program = ts.createProgram([file], { ...parsed.options, noEmit: true });
    return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  }

  it('rejects document and window in core, accepts plain ES', () => {
    expect(diagnostics('export const t = document.title;\n').join('\n')).toMatch(
      /Cannot find name 'document'/,
    );
    expect(diagnostics('export const w = window.innerWidth;\n').join('\n')).toMatch(
      /Cannot find name 'window'/,
    );
    expect(diagnostics('export const m = new Map<string, number>([["a", 1]]).size;\n')).toEqual([]);
  }, 30_000);
});
