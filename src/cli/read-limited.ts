/**
 * Reading a file a user names (or a format references: `policy_file`, traces, imports) with limits
 * first (#15.2): it must be a regular file (not `/dev/zero`, a pipe, a directory or a socket) and no
 * larger than a cap, checked before a byte is read, and the read itself stops at the cap (a file that
 * grows while it is read cannot push past it). Errors are plain sentences for a located message.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';

export const FILE_LIMITS = {
  /** YAML documents (scenarios, policies, scripts, BLIS specs): the parser refuses more than 1M characters anyway. */
  textBytes: 4_000_000,
  /** Request traces (the trace formats pass this larger cap explicitly). */
  traceBytes: 256_000_000,
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

/** The file's text (UTF-8), or a FileLimitError / the system's error saying why not. */
export function readTextLimited(path: string, maxBytes: number = FILE_LIMITS.textBytes): string {
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
  check(st, maxBytes); // before opening: opening a pipe would block, a device never ends
  const fd = openSync(path, 'r');
  try {
    check(fstatSync(fd), maxBytes); // the same file we checked, not one swapped in since
    const buf = Buffer.allocUnsafe(Math.min(maxBytes, Math.max(st.size, 0)) + 1);
    let n = 0;
    for (;;) {
      if (n === buf.length) {
        if (n > maxBytes)
          throw new FileLimitError(`it grew past the limit of ${mb(maxBytes)} while being read`);
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
