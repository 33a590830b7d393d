import { textsForDownload } from './errors';
import { downloadText } from './features/download';

/** A button that saves the editors' texts as one YAML file (offered wherever they might be lost). */
export function DownloadTexts({ label = 'Download your text' }: { label?: string }) {
  return (
    <button
      type="button"
      className="small"
      onClick={() => downloadText(textsForDownload(), 'fairground-edits.yaml', 'text/yaml')}
    >
      {label}
    </button>
  );
}
