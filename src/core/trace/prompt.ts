/**
 * A trace row's prompt, described instead of held (#14, #15.3): its prefix blocks (Mooncake
 * `hash_ids`), then tokens of its own. The ids are a pure function of the row, so nothing needs to
 * hold them: the radix caches compare page fingerprints (../replica/pages.ts), which come straight
 * from the block list, and the ids are computed only when a policy asks for them.
 *
 * Token id at position `pos` of prefix block `hash`: an odd multiple of (hash · blockTokens + pos + 1)
 * modulo 2^31, a bijection, so two different (block, position) pairs never share an id (for
 * hash · blockTokens < 2^31) and equal blocks give equal tokens. The last block may be partial (it is
 * the first tokens of its block); tokens past the listed blocks, and every token of a trace without
 * blocks, are the request's own (the stream named by its own label).
 *
 * Page fingerprints: a page that lies inside one block is identified by (block hash, page index in
 * the block), which fixes its ids exactly: check = hash · pagesPerBlock + page (exact for
 * hash · blockTokens < 2^31), key = the top 30 bits of an odd multiple of it. Its ids come from that block and no other
 * source, so two prompts share the page exactly when they share those ids, as a comparison of ids
 * would find. Other pages (a request's own tokens, a page across two blocks when the block size does
 * not divide the trace's block tokens) are fingerprinted from their ids (`writePage`).
 */
import { markImmutable } from '../clone';
import { writePage } from '../replica/pages';
import { allTokens, type StreamKey, streamKey, tokenAt } from '../workload/tokens';
import type { PromptSource, RequestSpec, SloClass } from '../workload/types';
import type { TraceTable } from './types';

/** Where one table's block ids sit among the run's tables: id `hash · stride + offset`. */
export interface BlockSpace {
  stride: number;
  offset: number;
}

const ONE_TABLE: BlockSpace = { stride: 1, offset: 0 };

/** Id at position `pos` of block `hash`. */
function blockToken(hash: number, blockTokens: number, pos: number): number {
  return Math.imul((hash * blockTokens + 1 + pos) | 0, 0x2545f491) & 0x7fffffff;
}

export class TracePrompt implements PromptSource {
  readonly length: number;
  private own: StreamKey | null = null;

  constructor(
    private readonly table: TraceTable,
    private readonly row: number,
    /** Names the stream of the row's own tokens. */
    private readonly ownLabel: string,
    /** Keeps the blocks of different tables apart when a run replays several. */
    private readonly space: BlockSpace = ONE_TABLE,
  ) {
    this.length = table.input[row];
  }

  /** Tokens covered by the row's blocks (the rest are its own). */
  private blockSpan(): number {
    const t = this.table;
    const bs = t.blockStart;
    if (bs === null || t.blocks === null) return 0;
    return Math.min(this.length, (bs[this.row + 1] - bs[this.row]) * t.blockTokens);
  }

  /** Write ids [from, from + count) at `out[at]`. */
  write(out: Int32Array, at: number, from: number, count: number): void {
    const t = this.table;
    const span = this.blockSpan();
    const per = t.blockTokens;
    let i = 0;
    if (from < span) {
      const blocks = t.blocks as Int32Array;
      const b0 = (t.blockStart as Int32Array)[this.row];
      for (const end = Math.min(count, span - from); i < end; i++) {
        const p = from + i;
        const j = Math.floor(p / per);
        out[at + i] = blockToken(blocks[b0 + j] * this.space.stride + this.space.offset, per, p - j * per);
      }
    }
    if (i < count) {
      this.own ??= streamKey(this.ownLabel);
      for (; i < count; i++) out[at + i] = tokenAt(this.own, from + i - span);
    }
  }

  tokens(): Int32Array {
    return allTokens(this);
  }

  pages(size: number): Int32Array {
    const n = Math.floor(this.length / size);
    const data = new Int32Array(2 * n);
    const t = this.table;
    const per = t.blockTokens;
    let k = 0;
    if (per % size === 0) {
      // pages inside blocks: from the block list alone
      const span = this.blockSpan();
      const inBlocks = Math.floor(span / size);
      const ppb = per / size;
      const blocks = t.blocks as Int32Array;
      const { stride, offset } = this.space;
      let j = inBlocks > 0 ? (t.blockStart as Int32Array)[this.row] : 0;
      while (k < inBlocks) {
        const base = (blocks[j++] * stride + offset) * ppb;
        const end = Math.min(inBlocks, k + ppb);
        for (let id = base | 0; k < end; k++, id = (id + 1) | 0) {
          // key: the top 30 bits of an odd multiple (a bijection on 32 bits, spread over the map)
          data[2 * k] = Math.imul(id, 0x9e3779b1) >>> 2;
          data[2 * k + 1] = id;
        }
      }
    }
    if (k < n) {
      // the rest from the ids
      const ids = new Int32Array(size);
      for (; k < n; k++) {
        this.write(ids, 0, k * size, size);
        writePage(data, 2 * k, ids, 0, size);
      }
    }
    return markImmutable(data);
  }
}

/** The spec of a trace request: `tokens` computes the ids when read (the engine reads `prompt`). */
export class TraceRequestSpec implements RequestSpec {
  readonly prompt: TracePrompt;
  policyClass?: string;
  model?: string;
  priority?: number;
  strictPriority?: number;
  worker?: number;
  dueInS?: number;

  constructor(
    readonly id: string,
    readonly client: string,
    table: TraceTable,
    row: number,
    ownLabel: string,
    readonly outputTokens: number,
    readonly sloClass: SloClass,
    readonly program: string,
    readonly node: string,
    space: BlockSpace = ONE_TABLE,
  ) {
    this.prompt = new TracePrompt(table, row, ownLabel, space);
  }

  get tokens(): Int32Array {
    return this.prompt.tokens();
  }
}

/**
 * The prompt of trace row `i`: its prefix blocks, then tokens of its own. `space` keeps the blocks of
 * different tables apart when a run replays several (default: one table, the ids themselves).
 */
export function traceTokens(
  table: TraceTable,
  i: number,
  ownLabel: string,
  space: BlockSpace = ONE_TABLE,
): Int32Array {
  return new TracePrompt(table, i, ownLabel, space).tokens();
}
