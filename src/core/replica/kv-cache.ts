/**
 * The paged KV cache of one worker, as a block ledger.
 *
 * Memory is a fixed number of equal blocks (`blockSize` tokens each). Who holds a block is tracked by
 * its owner (the radix prefix cache for cached prefixes, a running request for its private tokens),
 * so the pool itself only needs counts. Allocation is all-or-nothing: a request either gets every
 * block it asked for or none. The invariant `allocated + free = total` holds by construction and is
 * checked by `check()`.
 */
export class KvCache {
  readonly totalBlocks: number;
  readonly blockSize: number;
  private used = 0;
  /** Highest number of blocks ever allocated at once. */
  peakBlocks = 0;

  constructor(capacityTokens: number, blockSize: number) {
    if (!(blockSize >= 1) || !Number.isInteger(blockSize))
      throw new Error(`block size must be a positive integer, got ${blockSize}`);
    this.blockSize = blockSize;
    this.totalBlocks = Math.max(0, Math.floor(capacityTokens / blockSize));
  }

  get allocatedBlocks(): number {
    return this.used;
  }

  get freeBlocks(): number {
    return this.totalBlocks - this.used;
  }

  /** Blocks needed to hold `tokens` tokens. */
  blocksFor(tokens: number): number {
    return tokens <= 0 ? 0 : Math.ceil(tokens / this.blockSize);
  }

  /** Take `n` blocks, or none when fewer than `n` are free. */
  allocate(n: number): boolean {
    if (n <= 0) return true;
    if (this.used + n > this.totalBlocks) return false;
    this.used += n;
    if (this.used > this.peakBlocks) this.peakBlocks = this.used;
    return true;
  }

  release(n: number): void {
    if (n <= 0) return;
    if (n > this.used) throw new Error(`KV cache: releasing ${n} blocks but only ${this.used} are allocated`);
    this.used -= n;
  }

  /** Conservation check; returns a problem description or null. */
  check(): string | null {
    if (this.used < 0 || this.used > this.totalBlocks)
      return `KV cache: ${this.used} of ${this.totalBlocks} blocks allocated`;
    if (this.used + this.freeBlocks !== this.totalBlocks) return 'KV cache: allocated + free != total';
    return null;
  }
}
