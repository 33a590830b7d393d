/**
 * Deterministic stand-ins for token ids. A *stream* is an endless sequence of ids named by a label
 * (a document, a system prompt, one request's new tokens, one request's output); the id at a
 * position depends only on the label and the position. Two prompts that start with the same stream
 * therefore share a real token prefix, which is all a radix cache or a prefix matcher needs.
 *
 * Labels are hashed to 64 bits (two independent 32-bit lanes) so that unrelated streams do not
 * collide even with millions of labels; ids are non-negative 31-bit integers.
 */
import { markImmutable } from '../clone';
import type { PromptSource, RequestSpec } from './types';

/** A stream's 64-bit key. */
export interface StreamKey {
  readonly hi: number;
  readonly lo: number;
}

function fmix32(h0: number): number {
  let h = h0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The key of the stream named `label`. */
export function streamKey(label: string): StreamKey {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < label.length; i++) {
    const c = label.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return { hi: fmix32(a ^ label.length), lo: fmix32(b + Math.imul(label.length, 0x27d4eb2d)) };
}

/** The id at `pos` of the stream with key `key`. */
export function tokenAt(key: StreamKey, pos: number): number {
  return streamId(key.hi, key.lo, pos);
}

/** The id at `pos` of the stream whose key words are `hi`, `lo` (`tokenAt` without the key object). */
export function streamId(hi: number, lo: number, pos: number): number {
  const x = fmix32(hi ^ Math.imul(pos + 1, 0x9e3779b1));
  return fmix32(x ^ lo ^ Math.imul(pos, 0x7feb352d)) >>> 1;
}

/** Write `count` ids of stream `key`, starting at stream position `from`, into `out` at `offset`. */
export function writeStream(
  out: Int32Array,
  offset: number,
  key: StreamKey,
  from: number,
  count: number,
): void {
  for (let i = 0; i < count; i++) out[offset + i] = tokenAt(key, from + i);
}

/** One piece of a prompt: `count` tokens of the stream named `label` (from its start) or given ids. */
export type Piece = { label: string; count: number } | { ids: Int32Array };

/** Concatenate pieces into a prompt. O(total length). */
export function buildTokens(pieces: readonly Piece[]): Int32Array {
  let n = 0;
  for (const p of pieces) n += 'ids' in p ? p.ids.length : p.count;
  const out = new Int32Array(n);
  let at = 0;
  for (const p of pieces) {
    if ('ids' in p) {
      out.set(p.ids, at);
      at += p.ids.length;
    } else {
      writeStream(out, at, streamKey(p.label), 0, p.count);
      at += p.count;
    }
  }
  // prompts are never written again: engine copies (checkpoints) share them
  return markImmutable(out);
}

/** Label of the stream holding what request `id` generates. */
export function outputLabel(requestId: string): string {
  return `${requestId}/out`;
}

/**
 * The ids the model "generates" for a request. Follow-up prompts (the next chat turn, tree children,
 * the judge's merge) contain exactly these ids, so an engine that inserts prompt + output into its
 * radix cache on completion sees the follow-up's prefix as cached.
 */
export function outputTokenIds(request: Pick<RequestSpec, 'id' | 'outputTokens'>): Int32Array {
  const out = new Int32Array(request.outputTokens);
  writeStream(out, 0, streamKey(outputLabel(request.id)), 0, request.outputTokens);
  return out;
}

/** A prompt followed by its request's output: the full context a follow-up extends. */
export function fullContext(request: Pick<RequestSpec, 'id' | 'outputTokens' | 'tokens'>): Int32Array {
  const out = new Int32Array(request.tokens.length + request.outputTokens);
  out.set(request.tokens, 0);
  writeStream(out, request.tokens.length, streamKey(outputLabel(request.id)), 0, request.outputTokens);
  return out;
}

/** Every id of a described prompt, as a new array marked immutable (`PromptSource.tokens`). */
export function allTokens(p: Pick<PromptSource, 'length' | 'write'>): Int32Array {
  const out = new Int32Array(p.length);
  p.write(out, 0, 0, p.length);
  return markImmutable(out);
}
