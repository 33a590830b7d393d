/**
 * Where a scenario's trace files come from in the page (the top-level `trace.file` and every trace
 * client's): a file the user dropped or picked under that name (read in this worker, see
 * ./trace-upload.ts), else a trace bundled next to the shipped scenarios.
 */
import { readTraceText } from '../format/trace';
import type { ParseScenarioOptions } from '../scenario';
import { bundledTrace } from './bundled-traces';
import { droppedTrace, failedReading } from './trace-upload';

/** The page's trace sources: the dropped files by name, then the bundled traces. */
export function pageTraceSource(): Pick<ParseScenarioOptions, 'readTrace' | 'heldTrace'> {
  return {
    heldTrace: droppedTrace,
    readTrace: (rel, opts) => {
      // a dropped file of that name read the scenario's way before the load, and that failed
      const failed = failedReading(rel, opts);
      if (failed !== undefined) return failed;
      const text = bundledTrace(rel);
      if (text === undefined)
        throw new Error(
          'in the playground, drop the trace file on the page or pick it in Import (it is matched by its name)',
        );
      return readTraceText(rel, text, opts);
    },
  };
}
