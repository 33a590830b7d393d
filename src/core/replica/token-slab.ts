import { markImmutable } from '../clone';

/**
 * Storage for token runs the radix cache keeps (a finished request's tail: the last prompt page and
 * the generated ids). Allocating one small typed array per request is slow in JavaScript engines, so
 * runs are carved out of shared slabs of 16,384 ids; a slab is freed by the garbage collector once no
 * cached node refers to it any more. A run longer than a slab gets its own array.
 */
const SLAB = 16_384;

export class TokenSlab {
  private slab = new Int32Array(SLAB);
  private used = 0;

  /** Room for `n` ids: the array and the offset where the run starts. */
  take(n: number): { src: Int32Array; offset: number } {
    // (the caller fills the run at once and never writes it again)
    if (n > SLAB / 4) return { src: markImmutable(new Int32Array(n)), offset: 0 };
    if (this.used + n > SLAB) {
      // a full slab is only read from now on: engine copies (checkpoints) share it
      markImmutable(this.slab);
      this.slab = new Int32Array(SLAB);
      this.used = 0;
    }
    const offset = this.used;
    this.used += n;
    return { src: this.slab, offset };
  }
}
