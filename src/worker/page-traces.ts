/**
 * Where a scenario's trace files come from in the page (the top-level `trace.file` and every trace
 * client's): a file the user dropped or picked under that name (read in this worker, see
 * ./trace-upload.ts), else a trace bundled next to the shipped scenarios.
 */
import { readTraceText } from '../format/trace';
import type { ParseScenarioOptions } from '../scenario';
import { bundledTrace } from './bundled-traces';
import { droppedTrace } from './trace-upload';

/** The page's trace sources: the dropped files by name, then the bundled traces. */
export function pageTraceSource(): Pick<ParseScenarioOptions, 'readTrace' | 'heldTrace'> {
  return {
    heldTrace: droppedTrace,
    readTrace: (rel, opts) => {
      const text = bundledTrace(rel);
      if (text === undefined)
        throw new Error(
          'in the playground, drop the trace file on the page or pick it in Import (it is matched by its name)',
        );
      return readTraceText(rel, text, opts);
    },
  };
}
