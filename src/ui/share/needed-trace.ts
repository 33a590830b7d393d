/**
 * A shared link whose run replays a trace file that was dropped on the sender's page: the file is
 * never uploaded, so the link cannot carry it. Opening such a link asks for the file (by name) and
 * opens the run once it is picked; meanwhile the default scenario shows.
 */
import { create } from 'zustand';
import { nameList, quote } from '../../format/yaml';
import { fmtCount } from '../views/format';
import type { SharedState } from './codec';

export interface NeededTrace {
  /** The `trace.file` name the link's scenario replays (null: nothing is needed). */
  file: string | null;
  /** The link's fragment, opened again once the file is picked. */
  hash: string;
  /** What went wrong with a picked file, in words (empty when nothing did). */
  problem: string;
  reading: boolean;
  /** The copy picked (or held) is not the sender's (its size differs): offer to open with it anyway. */
  otherCopy?: boolean;
}

export const useNeededTrace = create<NeededTrace>(() => ({
  file: null,
  hash: '',
  problem: '',
  reading: false,
  otherCopy: false,
}));

/** In words: why a link of a dropped-trace run cannot open by itself, and what to do. */
export function neededTraceText(file: string): string {
  // the name comes from the link's scenario (up to 4,096 characters): quoted as every message quotes
  const name = quote(file);
  return `This link replays the request trace “${name}”, a file the sender dropped on their page. A dropped trace stays on the computer it was dropped on (it is never uploaded), so the link cannot carry it. Pick your copy of ${name} to open the run exactly as it was shared; it is read in this browser only.`;
}

/** The banner's button that picks the file. */
export function pickTraceLabel(file: string): string {
  return `Pick ${quote(file)}…`;
}

/** The copy held here (`size` bytes) is not the sender's (`bytes`): in words. */
export function otherCopyText(file: string, size: number, bytes: number): string {
  return `This copy of ${quote(file)} is ${fmtCount(size)} bytes; the sender's was ${fmtCount(bytes)} bytes, so the run would not be the one shared. Pick the sender's file, or open it with this one anyway.`;
}

/**
 * The link's record of the sender's trace sizes says nothing readable about `file` (the entry's value,
 * or the whole record, in words as the codec gives them): the copy held here cannot be checked.
 */
export function uncheckedCopyText(file: string, bad: { entry?: string; whole?: string }): string {
  const name = quote(file);
  const why =
    bad.whole !== undefined
      ? `is unreadable (it is ${bad.whole}, not sizes by file name)`
      : `is unreadable: its entry for ${name} is ${bad.entry}, not a byte count`;
  return `The link's record of the sender's trace sizes ${why}. So this page cannot tell whether this copy of ${name} is the sender's, and the run may not be the one shared. Pick the sender's file, or open it with this one anyway.`;
}

/**
 * The link records no size for `file` (a link made before sizes were recorded, or edited by hand):
 * the copy held here cannot be checked.
 */
export function unrecordedCopyText(file: string): string {
  const name = quote(file);
  return `The link records no size for the sender's ${name} (links made before sizes were recorded hold none), so this page cannot tell whether this copy of ${name} is the sender's, and the run may not be the one shared. Pick the sender's file, or open it with this one anyway.`;
}

/**
 * The first dropped trace among `files` (those the link's scenario replays) whose copy held here
 * (`sizeOf`, undefined when none is) is not the sender's by the link's `traceBytes`, or cannot be told
 * to be (`unchecked`: the record of its size is unreadable, or, `unrecorded`, there is none); null
 * when every held copy matches its recorded size. Entries for files the scenario does not replay are
 * not about this run.
 */
export function checkTraceCopies(
  s: Pick<SharedState, 'traceBytes' | 'unreadableTraceBytes'>,
  files: readonly string[],
  sizeOf: (name: string) => number | undefined,
): { name: string; message: string; unchecked: boolean; unrecorded: boolean } | null {
  const bad = s.unreadableTraceBytes;
  for (const name of files) {
    const size = sizeOf(name);
    if (size === undefined) continue;
    const entry = bad?.entries?.get(name);
    if (bad?.whole !== undefined || entry !== undefined)
      return {
        name,
        message: uncheckedCopyText(name, { entry, whole: bad?.whole }),
        unchecked: true,
        unrecorded: false,
      };
    const bytes = s.traceBytes && Object.hasOwn(s.traceBytes, name) ? s.traceBytes[name] : undefined;
    // no size for it: any copy would pass unchecked as the sender's, so it is not taken as such
    if (bytes === undefined)
      return { name, message: unrecordedCopyText(name), unchecked: true, unrecorded: true };
    if (size !== bytes)
      return { name, message: otherCopyText(name, size, bytes), unchecked: false, unrecorded: false };
  }
  return null;
}

/**
 * A short note for a link whose record of trace sizes is unreadable where no file its run replays
 * (`files`) is concerned: the run is the one shared, and the record changes nothing. Empty when the
 * record is readable, or when it concerns a replayed file (checkTraceCopies reports that copy).
 */
export function unusedSizesNote(
  s: Pick<SharedState, 'traceBytes' | 'unreadableTraceBytes'>,
  files: readonly string[],
): string {
  const bad = s.unreadableTraceBytes;
  if (bad === undefined) return '';
  if (files.length === 0)
    return 'The link’s record of trace file sizes is unreadable; this run replays no dropped trace file, so that changes nothing.';
  if (bad.whole !== undefined || files.some((f) => bad.entries?.has(f))) return '';
  return 'Part of the link’s record of trace file sizes is unreadable, only for files this run does not replay, so that changes nothing.';
}

/** The Share dialog's note: the link does not hold the dropped files, and what its receiver will see. */
export function shareTraceText(files: readonly string[]): string {
  const names = nameList(files);
  return `This run replays “${names}”, ${files.length === 1 ? 'a trace file' : 'trace files'} you dropped on this page. The link holds the scenario, policy and playhead but not the file: it was read in this browser and never uploaded. Whoever opens the link sees the default scenario and a request to pick their copy of ${names}; the run opens once they pick it, so send the file along with the link.`;
}
