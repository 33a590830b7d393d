/** What a CLI command may touch: injected so commands are testable in-process. */
import { writeFileSync } from 'node:fs';
import { readTextLimited } from './read-limited';

export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  /** A file's text, read with limits (regular file, at most `maxBytes`, default FILE_LIMITS.textBytes). */
  readFile(path: string, maxBytes?: number): string;
  writeFile(path: string, data: string): void;
  /** Progress goes to stderr only when it is a terminal (the contract). */
  progress(text: string): void;
  /** Calls `handler` on Ctrl-C (SIGINT) until the returned function is called; absent in tests. */
  onInterrupt?(handler: () => void): () => void;
}

/** Exit codes of the contract: 0 success, 1 invalid input, 2 internal error. */
export const EXIT = { ok: 0, invalid: 1, internal: 2, interrupted: 130 } as const;

export type Command = (args: string[], io: CliIO) => Promise<number>;

/**
 * Text for a terminal: control characters (C0 but tab and newline, DEL, C1) and the bidirectional
 * overrides and isolates are written as `\u001b`-style escapes. Messages and tables quote names
 * from the user's files (CSV headers, YAML keys, client names); raw, an escape sequence there could
 * clear the screen, retitle the terminal or reorder what is shown. The escapes are also valid in a
 * JSON string, where JSON.stringify leaves C1 characters and the overrides raw.
 */
export function terminalSafe(text: string): string {
  return text.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

const line = (t: string) => `${terminalSafe(t.endsWith('\n') ? t.slice(0, -1) : t)}\n`;

export function processIO(): CliIO {
  return {
    out: (t) => process.stdout.write(line(t)),
    err: (t) => process.stderr.write(line(t)),
    readFile: (p, max) => readTextLimited(p, max),
    writeFile: (p, d) => writeFileSync(p, d),
    progress: (t) => {
      // one line, rewritten in place; the empty string clears it
      // (FAIRGROUND_PROGRESS=1 forces it, for tests that watch a run from outside)
      if (process.stderr.isTTY) process.stderr.write(`\r\x1b[2K${terminalSafe(t)}`);
      else if (process.env.FAIRGROUND_PROGRESS === '1' && t !== '') process.stderr.write(line(t));
    },
    onInterrupt: (handler) => {
      let count = 0;
      const listener = () => {
        count++;
        if (count > 1) process.exit(EXIT.interrupted); // a second Ctrl-C does not wait
        handler();
      };
      process.on('SIGINT', listener);
      return () => process.off('SIGINT', listener);
    },
  };
}

/** An in-memory IO for tests: collects stdout/stderr, reads files from a map or the disk. */
export function memoryIO(files: Record<string, string> = {}): CliIO & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    out: (t) => stdout.push(t),
    err: (t) => stderr.push(t),
    readFile: (p, max) => (p in files ? files[p] : readTextLimited(p, max)),
    writeFile: (p, d) => {
      files[p] = d;
    },
    progress: () => {},
  };
}
