/** The banner that asks for the trace file a shared link's run replays, with a file picker. */
import { useRef } from 'react';
import { quote } from '../../format/yaml';
import type { Driver } from '../driver';
import { useEdits } from '../../state/edits';
import { localTraceFiles, rememberTraceFile } from '../features/trace-file-store';
import { neededTraceText, pickTraceLabel, shareTraceText, useNeededTrace } from './needed-trace';
import { openLink } from './share';

export function NeededTraceBanner({ driver }: { driver: Driver }) {
  const { file, hash, problem, reading, otherCopy } = useNeededTrace();
  const input = useRef<HTMLInputElement>(null);
  if (file === null) return null;
  const pick = async (picked: File | undefined) => {
    if (!picked) return;
    useNeededTrace.setState({ reading: true, problem: '' });
    // held under the link's name, so the shared scenario's trace.file finds it whatever the copy is called
    const res = await driver.loadTrace(picked, file);
    // a CSV of no known layout is read again with the shared scenario's trace.columns when it opens
    if (!res.ok && !(res.csvHeader !== undefined && !res.cancelled)) {
      useNeededTrace.setState({
        reading: false,
        problem: res.cancelled
          ? 'Reading the file was cancelled.'
          : `That file cannot be replayed: ${res.message}`,
      });
      return;
    }
    rememberTraceFile(picked, file);
    useNeededTrace.setState({ file: null, hash: '', problem: '', reading: false, otherCopy: false });
    history.replaceState(null, '', hash);
    // (a copy of another size asks again, with the choice to open with it anyway)
    await openLink(driver, hash);
  };
  const anyway = async () => {
    useNeededTrace.setState({ file: null, hash: '', problem: '', reading: false, otherCopy: false });
    history.replaceState(null, '', hash);
    await openLink(driver, hash, { anyCopy: true });
  };
  return (
    <div className="banner needed-trace" role="alert" aria-label="Trace file needed">
      <span>
        {neededTraceText(file)}
        {problem && <strong> {problem}</strong>}
      </span>
      <input
        ref={input}
        type="file"
        hidden
        aria-label={`Trace file ${quote(file)}`}
        onChange={(e) => void pick(e.currentTarget.files?.[0])}
      />
      <button type="button" className="small" disabled={reading} onClick={() => input.current?.click()}>
        {reading ? 'Reading…' : pickTraceLabel(file)}
      </button>
      {otherCopy && !reading && (
        <button
          type="button"
          className="small"
          onClick={() => void anyway()}
          title="Open the link's run with the copy this page holds; it will not be the run as it was shared"
        >
          Open with this copy anyway
        </button>
      )}
      <button
        type="button"
        className="small"
        onClick={() => useNeededTrace.setState({ file: null, hash: '', problem: '' })}
        aria-label="Dismiss"
      >
        ×
      </button>
    </div>
  );
}

/** In the Share dialog: the link cannot carry a dropped trace, and what its receiver will see. */
export function SharedTraceNote() {
  const scenario = useEdits((s) => s.texts.scenario);
  const local = localTraceFiles(scenario);
  if (local.length === 0) return null;
  return (
    <p className="share-trace-note" role="note">
      {shareTraceText(local)}
    </p>
  );
}
