/**
 * Reading a file a user names (or a format references: `policy_file`, traces, imports) with limits
 * first (#15.2): it must be a regular file (not `/dev/zero`, a pipe, a directory or a socket) and no
 * larger than a cap, checked before a byte is read, and the read itself stops at the cap (a file that
 * grows while it is read cannot push past it). Errors are plain sentences for a located message.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { MAX_TRACE_FILE_BYTES } from '../format/trace';

export const FILE_LIMITS = {
  /** YAML documents (scenarios, policies, scripts, BLIS specs): the parser refuses more than 1M characters anyway. */
  textBytes: 4_000_000,
  /** Request traces (the trace formats pass this larger cap explicitly; the page's cap too). */
  traceBytes: MAX_TRACE_FILE_BYTES,
} as const;

/** An error whose message is meant for the user (the reason a file cannot be read). */
export class FileLimitError extends Error {
  override name = 'FileLimitError';
}

const mb = (n: number): string => `${(n / 1e6).toFixed(n < 1e7 ? 1 : 0)} MB`;

function kindOf(st: import('node:fs').Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isFIFO()) return 'a pipe';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

function check(st: import('node:fs').Stats, maxBytes: number): void {
  if (!st.isFile()) throw new FileLimitError(`it is ${kindOf(st)}, not a regular file`);
  if (st.size > maxBytes) throw new FileLimitError(`it is ${mb(st.size)}; the limit is ${mb(maxBytes)}`);
}

/**
 * Opens a file a user names, for reading, once it is known to be a regular file of at most
 * `maxBytes` (checked before opening, as opening a pipe would block and a device never ends, and
 * again on the open descriptor, so a file swapped in since is checked too). The caller closes `fd`
 * and stops reading at `maxBytes`. Throws a FileLimitError saying why not.
 */
export function openLimited(path: string, maxBytes: number): { fd: number; size: number } {
  let st: import('node:fs').Stats;
  try {
    st = statSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new FileLimitError(
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES'
          ? 'permission denied'
          : `cannot stat it (${code ?? 'error'})`,
    );
  }
  check(st, maxBytes);
  const fd = openSync(path, 'r');
  try {
    const now = fstatSync(fd);
    check(now, maxBytes);
    return { fd, size: now.size };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** The error for a file that grew past its cap while it was read. */
export function grewPast(maxBytes: number): FileLimitError {
  return new FileLimitError(`it grew past the limit of ${mb(maxBytes)} while being read`);
}

/** The file's text (UTF-8), or a FileLimitError / the system's error saying why not. */
export function readTextLimited(path: string, maxBytes: number = FILE_LIMITS.textBytes): string {
  const { fd, size } = openLimited(path, maxBytes);
  try {
    const buf = Buffer.allocUnsafe(Math.min(maxBytes, Math.max(size, 0)) + 1);
    let n = 0;
    for (;;) {
      if (n === buf.length) {
        if (n > maxBytes) throw grewPast(maxBytes);
        break;
      }
      const got = readSync(fd, buf, n, buf.length - n, null);
      if (got === 0) break;
      n += got;
    }
    return buf.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** The reason a read failed, for a message (`cannot read …: <reason>`). */
export function readFailure(err: unknown): string {
  if (err instanceof FileLimitError) return err.message;
  const code = (err as NodeJS.ErrnoException)?.code;
  return code ? `cannot read it (${code})` : 'cannot read it';
}
