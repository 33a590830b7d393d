/**
 * A shared link whose run replays a trace file that was dropped on the sender's page: the file is
 * never uploaded, so the link cannot carry it. Opening such a link asks for the file (by name) and
 * opens the run once it is picked; meanwhile the default scenario shows.
 */
import { create } from 'zustand';
import { nameList, quote } from '../../format/yaml';
import { fmtCount } from '../views/format';

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

/** The Share dialog's note: the link does not hold the dropped files, and what its receiver will see. */
export function shareTraceText(files: readonly string[]): string {
  const names = nameList(files);
  return `This run replays “${names}”, ${files.length === 1 ? 'a trace file' : 'trace files'} you dropped on this page. The link holds the scenario, policy and playhead but not the file: it was read in this browser and never uploaded. Whoever opens the link sees the default scenario and a request to pick their copy of ${names}; the run opens once they pick it, so send the file along with the link.`;
}
