/**
 * A synthetic prompt described instead of held (#15.3): a chain of *segments*, each `count` tokens of
 * one id stream (tokens.ts) from its start, appended to a base prompt. A follow-up that extends a
 * reply is the reply's prompt + the reply's output stream + its own new tokens: three small objects
 * on top of the parent's chain, where its ids took 4 bytes per token. The ids are exactly those
 * `buildTokens` writes for the same pieces, so every figure is what it was with ids held.
 *
 * Page fingerprints (../replica/pages.ts: key and check of each whole page, from its ids) are
 * computed on demand, and remembered per segment: a segment keeps the fingerprints of every page up
 * to its end (a reference to the array of the last request that computed them). A follow-up copies
 * those of its nearest segment that has them and hashes only the segments after it (its parent's
 * reply, once for all its siblings, and its own new tokens), where a whole prompt cost two hashes per
 * token (#14's regression of the Tree-of-Thoughts benchmark).
 *
 * Memory: a segment's fingerprints live as long as some prompt that contains it (a tree's question
 * while any request of the tree lives, a client's system prompt for the run). A request's *own*
 * segments (made for it alone: its new tokens, a merge's instruction) drop theirs when it waits in a
 * queue (`release`); segments others extend (a question, a reply, a document) are the program's
 * context and keep theirs while the program needs them. Computing a prompt's pages points every
 * segment of its chain at the new array, so a queued request reaches no ids and at most its
 * context's page fingerprints (tests/unit/sim/queued-memory.test.ts measures it).
 */
import { pageWords, writePage } from '../replica/pages';
import { allTokens, outputLabel, streamId, streamKey } from './tokens';
import type { PromptSource, RequestSpec, SloClass } from './types';

/** One piece of a described prompt: `count` tokens of the stream named `label`, from its start. */
export interface Segment {
  label: string;
  count: number;
}

/** Scratch for the ids of one page (the engine is single-threaded; never held across calls). */
let scratch = new Int32Array(16);

export class StreamPrompt implements PromptSource {
  /** Tokens of the whole prompt (base + this segment). */
  readonly length: number;
  /** Where this segment starts in the prompt (the base's length). */
  readonly start: number;
  /** The stream's 64-bit key (tokens.ts `streamKey` of the label). */
  private readonly hi: number;
  private readonly lo: number;
  /**
   * Fingerprints of every whole page up to this segment's end, for pages of `cacheSize` tokens: the
   * first `cacheWords` words of the pages of the request that computed them (null: none kept).
   */
  private cache: Int32Array | null = null;
  private cacheWords = 0;
  private cacheSize = 0;

  constructor(
    /** The prompt this one extends (null: it starts here). */
    readonly base: StreamPrompt | null,
    label: string,
    readonly count: number,
    /**
     * Context: other prompts extend it (a question, a reply, a document), so it keeps its
     * fingerprints when a request that contains it waits; false: made for one request alone.
     */
    readonly context: boolean,
  ) {
    const key = streamKey(label);
    this.hi = key.hi;
    this.lo = key.lo;
    this.start = base === null ? 0 : base.length;
    this.length = this.start + count;
  }

  /**
   * `base` extended by `pieces` (empty pieces skipped); null when the result is empty. `context`:
   * whether the new segments are context (see the constructor).
   */
  static extend(
    base: StreamPrompt | null,
    pieces: readonly Segment[],
    context: boolean,
  ): StreamPrompt | null {
    let p = base;
    for (const s of pieces) if (s.count > 0) p = new StreamPrompt(p, s.label, s.count, context);
    return p;
  }

  /** `extend` for a prompt that has at least one token (a request's): throws when it would be empty. */
  static build(base: StreamPrompt | null, pieces: readonly Segment[], context: boolean): StreamPrompt {
    const p = StreamPrompt.extend(base, pieces, context);
    if (p === null) throw new Error(`empty prompt: ${pieces.map((s) => s.label).join(' + ')}`);
    return p;
  }

  /** The id at position `pos` of this segment's stream (tokens.ts `tokenAt`). */
  idAt(pos: number): number {
    return streamId(this.hi, this.lo, pos);
  }

  write(out: Int32Array, at: number, from: number, count: number): void {
    writeChain(this, out, at, from, count);
  }

  tokens(): Int32Array {
    return allTokens(this);
  }

  pages(size: number): Int32Array {
    const n = Math.floor(this.length / size);
    const data = pageWords(2 * n);
    // the nearest segment that knows every page before its end (the prompt's own, or an ancestor's)
    // and the segments after it, whose pages are hashed here from their ids
    const todo: StreamPrompt[] = [];
    let known: StreamPrompt | null = this;
    let cache: Int32Array | null = null;
    for (; known !== null; known = known.base) {
      if (known.cacheSize === size && known.cache !== null) {
        cache = known.cache;
        break;
      }
      todo.push(known);
    }
    let k = 0;
    let fill = 0;
    if (scratch.length < size) scratch = new Int32Array(size);
    const ids = scratch;
    if (known !== null && cache !== null) {
      const words = known.cacheWords;
      for (let i = 0; i < words; i++) data[i] = cache[i];
      k = words >> 1;
      // ids[0, fill): the ids of page k so far (the part of it before the first segment to hash)
      fill = known.length - k * size;
      if (fill > 0) writeChain(known, ids, 0, k * size, fill);
    }
    for (let c = todo.length - 1; c >= 0; c--) {
      const s = todo[c];
      for (let pos = 0; pos < s.count; pos++) {
        ids[fill++] = s.idAt(pos);
        if (fill === size) {
          writePage(data, 2 * k, ids, 0, size);
          k++;
          fill = 0;
        }
      }
    }
    // every segment of the chain now reads its pages from this array (never written again): the
    // arrays of the requests that computed them before are no longer held through the chain, so a
    // prompt reaches at most this array and those its own later extensions compute
    for (let s: StreamPrompt | null = this; s !== null; s = s.base) {
      s.cache = data;
      s.cacheWords = 2 * Math.floor(s.length / size);
      s.cacheSize = size;
    }
    return data;
  }

  /**
   * Drop the fingerprints kept by the prompt's own segments (those above its last context segment),
   * so a request that waits holds nothing prompt-sized of its own; the next `pages` computes them again.
   */
  release(): void {
    for (let p: StreamPrompt | null = this; p !== null && !p.context; p = p.base) {
      p.cache = null;
      p.cacheSize = 0;
    }
  }
}

/** Write ids [from, from + count) of `prompt` at `out[at]` (segments visited last first, none allocated). */
function writeChain(prompt: StreamPrompt, out: Int32Array, at: number, from: number, count: number): void {
  const end = from + count;
  for (let s: StreamPrompt | null = prompt; s !== null && s.length > from; s = s.base) {
    if (s.start >= end) continue;
    const lo = Math.max(from, s.start);
    const hi = Math.min(end, s.length);
    for (let p = lo, i = at + lo - from; p < hi; p++, i++) out[i] = s.idAt(p - s.start);
  }
}

/**
 * The spec of a request whose prompt is a `StreamPrompt`: `tokens` computes the ids when read (the
 * engine reads `prompt`). The optional fields are set only when they have a value, as on a literal.
 */
export class StreamRequestSpec implements RequestSpec {
  declare policyClass?: string;
  declare model?: string;
  declare priority?: number;
  declare strictPriority?: number;
  declare worker?: number;
  declare dueInS?: number;

  constructor(
    readonly id: string,
    readonly client: string,
    readonly prompt: StreamPrompt,
    readonly outputTokens: number,
    readonly maxNewTokens: number,
    readonly sloClass: SloClass,
    readonly program: string,
    readonly node: string,
  ) {}

  get tokens(): Int32Array {
    return this.prompt.tokens();
  }
}

/**
 * A prompt followed by its request's output (`outputTokens` ids of the stream `outputLabel(id)`): the
 * full context a follow-up extends (tokens.ts `fullContext`), as context.
 */
export function withReply(prompt: StreamPrompt, requestId: string, outputTokens: number): StreamPrompt {
  return (
    StreamPrompt.extend(prompt, [{ label: outputLabel(requestId), count: outputTokens }], true) ?? prompt
  );
}
