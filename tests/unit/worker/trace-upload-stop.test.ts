/**
 * The page's trace reader stops pulling a file once the trace reader has given up on it (a line too
 * long to be a trace): before, the whole file was still read and decoded, so a dropped multi-GB
 * non-trace file kept the worker busy to its end.
 */
import { describe, expect, it } from 'vitest';
import { readTraceBlob } from '../../../src/worker/trace-upload';

/** A file of `chunks` × 64 KiB of 'x' (no newline), made on demand; counts the chunks read. */
function endlessLine(chunks: number): { file: Blob; pulled: () => number } {
  const piece = new TextEncoder().encode('x'.repeat(64 * 1024));
  let pulls = 0;
  const file = {
    size: chunks * piece.byteLength,
    stream: () =>
      new ReadableStream<Uint8Array>({
        pull(ctrl) {
          if (pulls >= chunks) ctrl.close();
          else {
            pulls++;
            ctrl.enqueue(piece);
          }
        },
      }),
  };
  // (only `size` and `stream()` are read)
  return { file: file as unknown as Blob, pulled: () => pulls };
}

describe('readTraceBlob', () => {
  it('stops reading once a line is too long for a trace, and says so', async () => {
    const { file, pulled } = endlessLine(2_000); // 125 MiB on one line
    const res = await readTraceBlob(file, 'big.jsonl', {});
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.message).toMatch(/a line longer than 1,000,000 characters/);
    // 1,000,000 characters is 16 chunks; a few more may be in flight
    expect(pulled()).toBeLessThan(40);
  });
});

describe('readTraceBlob, before reading', () => {
  it('refuses a file over the command line’s trace cap (256 MB) without reading a byte, and says so', async () => {
    // six dropped 1 GB traces took a tab to 3.7 GB: the page held each one's table
    let pulled = false;
    const file = {
      size: 1_000_006_826,
      stream: () => {
        pulled = true;
        throw new Error('read');
      },
    } as unknown as Blob;
    const res = await readTraceBlob(file, 'huge.jsonl', {});
    expect(res).toEqual({
      ok: false,
      cancelled: false,
      message: 'huge.jsonl: cannot read the trace file: it is 1000 MB; the limit is 256 MB',
    });
    expect(pulled).toBe(false);
  });
});
