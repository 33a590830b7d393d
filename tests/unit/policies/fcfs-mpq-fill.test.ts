/**
 * Preble's non-chunked step under fcfs-mpq: while at least half of the KV pool is free (free blocks
 * only, cached prefixes not counted), a step whose group scan admits anything runs only those
 * prefills, whole prompts with no token budget, and the running requests wait; a scan that admits
 * nothing starts a run of decode steps that does not look at the queue, ended by a completion, by
 * Preble's stream interval (its decode counter reaching a multiple of 8) or after ten steps.
 * Below half free, the chunked step as every other policy runs it.
 */
import { describe, expect, it } from 'vitest';
import { LiveFcfsMpqPolicy } from '../../../src/core/algorithms/fcfs-mpq/live-policy';
import { FcfsMpqPolicy } from '../../../src/core/algorithms/fcfs-mpq/policy';
import type { LocalPolicy } from '../../../src/core/replica/local-policy';
import { Harness, range } from './harness';

/** Decodes and prefill tokens of every step so far. */
function shapes(h: Harness): [number, number][] {
  return h.records.flatMap((r) =>
    r.kind === 'step'
      ? [[r.detail.decodes as number, r.detail.prefill_tokens as number] as [number, number]]
      : [],
  );
}

const impls = (): (LocalPolicy | undefined)[] => [undefined, new FcfsMpqPolicy(0), new LiveFcfsMpqPolicy(0)];

describe('fcfs-mpq: Preble’s non-chunked step while half the KV pool is free', () => {
  it('runs an admitting step as whole prefills only: no token budget, no decodes', () => {
    for (const use of impls()) {
      const h = new Harness({
        policy: 'fcfs-mpq',
        blockSize: 16,
        maxBatchTokens: 256,
        ...(use ? { use } : {}),
      });
      h.add({ id: 'r1', client: 'a', tokens: range(0, 50), out: 40 });
      h.step();
      h.add({ id: 'big', client: 'b', tokens: range(10_000, 1000), out: 4 });
      h.step();
      h.step();
      // r1 waits while big prefills whole (1000 > max_batch_tokens); then both decode
      expect(shapes(h)).toEqual([
        [0, 50],
        [0, 1000],
        [2, 0],
      ]);
    }
  });

  it('runs the chunked step once less than half the pool is free', () => {
    for (const use of impls()) {
      const h = new Harness({
        policy: 'fcfs-mpq',
        blockSize: 16,
        kvTokens: 2000,
        maxBatchTokens: 256,
        ...(use ? { use } : {}),
      });
      // 1100 prompt tokens: after its first chunk is cached and locked, under half the pool is free
      h.add({ id: 'hog', client: 'a', tokens: range(0, 1100), out: 100 });
      h.step(); // whole: 1100 tokens in one step (the pool was empty)
      h.add({ id: 'next', client: 'b', tokens: range(10_000, 600), out: 4 });
      h.step();
      expect(shapes(h)).toEqual([
        [0, 1100],
        [1, 255],
      ]);
    }
  });

  it('a scan that admits nothing starts a run of decode steps that ignores the queue until the 8th decode step', () => {
    for (const use of impls()) {
      const h = new Harness({ policy: 'fcfs-mpq', blockSize: 16, kvTokens: 1000, ...(use ? { use } : {}) });
      h.add({ id: 'r1', client: 'a', tokens: range(0, 10), out: 300 });
      h.step(); // step 1: r1's prefill (no decode counted)
      // x never fits beside r1's output reservation, though more than half the pool is free
      h.add({ id: 'x', client: 'b', tokens: range(5000, 900), out: 50 });
      h.step(); // step 2: the scan admits nothing; decode step 1 of a run
      h.add({ id: 'y', client: 'b', tokens: range(9000, 20), out: 2 });
      let waited = 0;
      while (!h.admitted.includes('y')) {
        h.step();
        waited++;
      }
      // steps 3 … 9 are decode steps 2 … 8 of the run (the counter reaches 8: Preble's stream
      // interval flushes output and ends it); step 10 scans group 0 again: x passed over, y admitted
      expect(waited).toBe(8);
      expect(shapes(h).slice(1, 10)).toEqual(
        Array(8)
          .fill([1, 0])
          .concat([[0, 20]]),
      );
    }
  });

  it('a completion ends the run of decode steps early', () => {
    for (const use of impls()) {
      const h = new Harness({ policy: 'fcfs-mpq', blockSize: 16, kvTokens: 1000, ...(use ? { use } : {}) });
      h.add({ id: 'r1', client: 'a', tokens: range(0, 10), out: 300 });
      h.add({ id: 'r2', client: 'a', tokens: range(100, 10), out: 4 });
      h.step(); // r1 and r2 prefill (first token each)
      h.add({ id: 'x', client: 'b', tokens: range(5000, 900), out: 50 });
      h.step(); // nothing admitted: run, decode step 1 (r2 has 2 tokens)
      h.add({ id: 'y', client: 'b', tokens: range(9000, 20), out: 2 });
      let waited = 0;
      while (!h.admitted.includes('y')) {
        h.step();
        waited++;
      }
      // r2 completes at the end of decode step 3 (its 4th token): the run ends there
      expect(waited).toBe(3);
    }
  });
});
