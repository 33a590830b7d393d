/**
 * A shared link whose run replays a trace file that was dropped on the sender's page: the file is
 * never uploaded, so the link cannot carry it. Opening such a link asks for the file (by name) and
 * opens the run once it is picked; meanwhile the default scenario shows.
 */
import { create } from 'zustand';

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
  return `This link replays the request trace “${file}”, a file the sender dropped on their page. A dropped trace stays on the computer it was dropped on (it is never uploaded), so the link cannot carry it. Pick your copy of ${file} to open the run exactly as it was shared; it is read in this browser only.`;
}

/** The Share dialog's note: the link does not hold the dropped file, and what its receiver will see. */
export function shareTraceText(file: string): string {
  return `This run replays “${file}”, a trace file you dropped on this page. The link holds the scenario, policy and playhead but not the file: it was read in this browser and never uploaded. Whoever opens the link sees the default scenario and a request to pick their copy of ${file}; the run opens once they pick it, so send the file along with the link.`;
}
