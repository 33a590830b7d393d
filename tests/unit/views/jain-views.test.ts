/**
 * The system view of the run's Jain's index beside the client view (tryout T1): the snapshot's own
 * system-view index over the run's window (run --json's jain_index_extend).
 */
import { describe, expect, it } from 'vitest';
import { diffRows, figuresOf } from '../../../src/ui/compare/diff';
import { fmtSystemJain, systemJain } from '../../../src/ui/views/jain-views';
import type { SimSnapshot } from '../../../src/worker/session';
import { clusterSnapshot } from './fixtures';

function snap(sys: { index: number; clients: number; served: number }): SimSnapshot {
  const base = clusterSnapshot();
  return { ...base, jain_run_system: { ...base.jain_run_system, ...sys } };
}

describe('systemJain', () => {
  it("is the snapshot's system-view index (run --json's jain_index_extend), exact", () => {
    const s = systemJain(snap({ index: 0.8, clients: 2, served: 2 }));
    expect(s).toBe(0.8);
    expect(fmtSystemJain(0.8)).toBe('0.800');
  });

  it('needs two clients that have sent requests, and some service in the window', () => {
    expect(systemJain(snap({ index: 1, clients: 1, served: 1 }))).toBeNull();
    expect(systemJain(snap({ index: 1, clients: 2, served: 0 }))).toBeNull();
    expect(systemJain(snap({ index: 0.7, clients: 3, served: 2 }))).toBe(0.7);
  });
});

describe("Compare's Jain's index row", () => {
  it('names its view', () => {
    const f = figuresOf(clusterSnapshot());
    const row = diffRows(f, f).find((r) => r.key === 'jain');
    expect(row?.label).toBe("Jain's index, client view");
    expect(row?.title).toContain('client view');
  });
});
