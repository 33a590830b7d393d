/**
 * The key order of decision-record JSON lines, for the `--trace` pin (trace-v1.test.ts): per kind of
 * record (and its algorithm), per object path, the keys in the order the lines write them. Keys of
 * objects that are maps (a client's or a worker's entry) are data, not field names: they are left out.
 * scripts/trace-v1-keys.ts writes the pin from these runs.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** Runs that, together, write every kind of record and every algorithm detail the engine has. */
export const TRACE_CASES: readonly [name: string, file: string, sets: readonly string[]][] = [
  ['default', 'default.yaml', ['duration_s=6']],
  ['doubleq-vtc', 'default.yaml', ['duration_s=8', 'router.routing=doubleq', 'scheduler.policy=vtc']],
  ['preble-fcfs-mpq', 'default.yaml', ['duration_s=6', 'router.routing=preble', 'scheduler.policy=fcfs-mpq']],
  [
    'least-loaded-lpm',
    'default.yaml',
    ['duration_s=6', 'router.routing=least-loaded', 'scheduler.policy=lpm'],
  ],
  [
    'random-dfs-weight',
    'default.yaml',
    ['duration_s=6', 'router.routing=random', 'scheduler.policy=dfs-weight'],
  ],
  [
    'per-client-rr-reverse-priority',
    'default.yaml',
    ['duration_s=6', 'router.routing=per-client-rr', 'scheduler.policy=reverse-priority'],
  ],
  ['lrs', 'vajra-lrs.yaml', ['duration_s=6']],
  ['edf-pull', 'vajra-edf-pull.yaml', ['duration_s=6']],
  ['priority-fcfs', 'blis-priority-fcfs.yaml', ['duration_s=6']],
  ['sjf', 'blis-sjf-starvation.yaml', ['duration_s=6']],
  ['preemption', 'fig1-kv-pressure.yaml', ['duration_s=12']],
];

/** Group -> object path -> keys in written order. A group is the record's kind, `/algo` when it has one. */
export type KeyOrder = Record<string, Record<string, string[]>>;

export interface TraceLine {
  kind: string;
  detail?: { algo?: string };
}

const isMap = (path: string, v: object) =>
  !Array.isArray(v) && (path === 'detail.counters' || path === 'detail.deficits');

/** Every object of `v` with its path (array elements as `[]`), maps left out. */
export function objects(v: unknown, path: string, out: [string, object][]): void {
  if (Array.isArray(v)) for (const x of v) objects(x, `${path}[]`, out);
  else if (v !== null && typeof v === 'object' && !isMap(path, v)) {
    out.push([path, v]);
    for (const [k, x] of Object.entries(v)) objects(x, path === '' ? k : `${path}.${k}`, out);
  }
}

export function groupOf(line: TraceLine): string {
  return line.detail?.algo === undefined ? line.kind : `${line.kind}/${line.detail.algo}`;
}

/** Adds the lines' keys to `into`: a key seen first goes right after the key written before it. */
export function mergeKeyOrder(lines: readonly TraceLine[], into: KeyOrder): KeyOrder {
  for (const line of lines) {
    into[groupOf(line)] ??= {};
    const group = into[groupOf(line)];
    const found: [string, object][] = [];
    objects(line, '', found);
    for (const [path, o] of found) {
      group[path] ??= [];
      const order = group[path];
      let at = -1;
      for (const k of Object.keys(o)) {
        const i = order.indexOf(k);
        if (i >= 0) at = i;
        else order.splice(++at, 0, k);
      }
    }
  }
  return into;
}

/**
 * The pin file's text for a key order: groups sorted by name, laid out as biome formats JSON (arrays
 * on one line when they fit), so `npm run lint` accepts the file as written. `root`: the repository.
 */
export function keyOrderJson(seen: KeyOrder, root: string): string {
  const sorted: KeyOrder = {};
  for (const group of Object.keys(seen).sort()) sorted[group] = seen[group];
  return execFileSync(
    join(root, 'node_modules/.bin/biome'),
    ['format', `--stdin-file-path=${join(root, 'tests/unit/cli/trace-v1-keys.json')}`],
    { input: `${JSON.stringify(sorted, null, 2)}\n`, encoding: 'utf8', cwd: root },
  );
}
