/**
 * A token sequence as the radix cache compares it (#14): one fingerprint per whole page of `size`
 * tokens, two 32-bit words per page, interleaved in one array (`data[2k]`, `data[2k + 1]` for page k):
 *   - the *key*, 30 bits: the FNV-1a hash of the page's token ids (children of a radix node are found
 *     by it; kept below 2^30 so map keys stay small integers, which engines store unboxed);
 *   - the *check*, 32 bits: a second, independent hash of the same ids.
 * Two pages are taken to be equal when key and check both are, as vLLM and Dynamo's KV router take
 * pages with equal block hashes to be equal; unequal pages pass as equal with probability about
 * 2^-62 per comparison. With pages of one token, key and check are the id itself: exact.
 *
 * Prompts are described by their fingerprints, computed once per request (not once per worker per
 * walk), and a trace prompt never needs its token ids (`../trace/prompt.ts` computes its pages from
 * its prefix blocks). A sequence with a partial last page has `floor(length / size)` pages: the
 * partial page never enters the cache.
 */
import { markImmutable } from '../clone';

export class PageSeq {
  constructor(
    /** Tokens per page (the cache's block size). */
    readonly size: number,
    /** Tokens of the sequence (whole pages and the partial last page). */
    readonly length: number,
    /** 2 words per whole page: key, check. Never written once built (engine copies share it). */
    readonly data: Int32Array,
  ) {}

  /** Whole pages. */
  get pages(): number {
    return this.data.length >> 1;
  }

  /** The fingerprints of `tokens` cut into pages of `size`. */
  static fromTokens(tokens: Int32Array, size: number): PageSeq {
    const n = Math.floor(tokens.length / size);
    const data = new Int32Array(2 * n);
    for (let k = 0; k < n; k++) writePage(data, 2 * k, tokens, k * size, size);
    return new PageSeq(size, tokens.length, markImmutable(data));
  }
}

/** Words per slab of page fingerprints (16 kB). */
const SLAB_WORDS = 4096;
let slab = new Int32Array(SLAB_WORDS);
let slabUsed = 0;

/**
 * Room for `words` words of page fingerprints that the caller writes at once and never again (a
 * prompt's pages). Allocating one small typed array per request is slow in JavaScript engines (about
 * a microsecond each, and work for the collector), so arrays are carved out of shared slabs, as
 * `TokenSlab` does for the radix caches' runs; a slab is freed once nothing refers to any part of it.
 * A full slab is marked immutable (engine copies share it); the one being filled is copied with an
 * engine, which is right as its carved parts are never written again and the copy allocates elsewhere.
 */
export function pageWords(words: number): Int32Array {
  if (words > SLAB_WORDS / 4) return markImmutable(new Int32Array(words));
  if (slabUsed + words > SLAB_WORDS) {
    markImmutable(slab);
    slab = new Int32Array(SLAB_WORDS);
    slabUsed = 0;
  }
  const out = slab.subarray(slabUsed, slabUsed + words);
  slabUsed += words;
  return out;
}

/** The key of the page `src[pos .. pos + size)` (FNV-1a, 30 bits). */
export function pageKey(src: Int32Array, pos: number, size: number): number {
  if (size === 1) return src[pos] & 0x3fffffff;
  let h = 0x811c9dc5;
  for (let i = pos, end = pos + size; i < end; i++) h = Math.imul(h ^ src[i], 0x01000193);
  return (h ^ (h >>> 30)) & 0x3fffffff;
}

/** Write key and check of the page `src[pos .. pos + size)` at `out[at]`, `out[at + 1]`. */
export function writePage(out: Int32Array, at: number, src: Int32Array, pos: number, size: number): void {
  if (size === 1) {
    const t = src[pos];
    out[at] = t & 0x3fffffff;
    out[at + 1] = t;
    return;
  }
  let h = 0x811c9dc5;
  let g = 0x9747b28c;
  for (let i = pos, end = pos + size; i < end; i++) {
    const t = src[i];
    h = Math.imul(h ^ t, 0x01000193);
    g = Math.imul(g ^ t, 0x5bd1e995);
    g ^= g >>> 15;
  }
  out[at] = (h ^ (h >>> 30)) & 0x3fffffff;
  g ^= g >>> 16;
  g = Math.imul(g, 0x85ebca6b);
  g ^= g >>> 13;
  out[at + 1] = g;
}
