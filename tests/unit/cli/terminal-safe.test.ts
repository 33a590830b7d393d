/**
 * What the command line writes to a terminal cannot carry a file's control characters: a CSV header
 * or a YAML key holding ESC [2J or ESC ]0;title BEL cleared the screen or retitled the terminal when
 * a message quoted it, and a bare CR overwrote the line.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { processIO, terminalSafe } from '../../../src/cli/io';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('terminalSafe', () => {
  it('writes control characters, C1 and bidi overrides as \\u escapes, keeping tabs and newlines', () => {
    expect(terminalSafe('a\u001b[2Jb')).toBe('a\\u001b[2Jb');
    expect(terminalSafe('\u001b]0;owned\u0007')).toBe('\\u001b]0;owned\\u0007');
    expect(terminalSafe('head\rtail')).toBe('head\\u000dtail');
    expect(terminalSafe('x\u009by\u007f')).toBe('x\\u009by\\u007f');
    expect(terminalSafe('abc\u202edef')).toBe('abc\\u202edef');
    expect(terminalSafe('col\tname\nnext line é 中')).toBe('col\tname\nnext line é 中');
  });

  it('keeps JSON valid and equal to what it held', () => {
    const value = { name: 'a\u0085b\u202ec', esc: '\u001b' };
    const text = terminalSafe(JSON.stringify(value));
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('is what the process IO writes, on stdout and stderr', () => {
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((t) => {
      out.push(String(t));
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation((t) => {
      out.push(String(t));
      return true;
    });
    const io = processIO();
    io.out('trace.csv:1:5: unknown column "\u001b[2Jx"');
    io.err('bad\rline\n');
    expect(out).toEqual(['trace.csv:1:5: unknown column "\\u001b[2Jx"\n', 'bad\\u000dline\n']);
  });
});
