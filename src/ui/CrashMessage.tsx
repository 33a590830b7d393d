import { useUi } from '../state/store';
import { DownloadTexts } from './DownloadTexts';

/**
 * What an unexpected error shows: what happened, that the user's text is kept, and a way on
 * (dismiss, or try the part again, or reload), plus a download of the editors' texts.
 */
export function CrashMessage({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div className="banner error" role="alert">
      <span>
        Something went wrong: {message}. Your text in the editors is kept. <DownloadTexts />{' '}
        {onRetry ? (
          <button type="button" className="small" onClick={onRetry}>
            Try again
          </button>
        ) : (
          <button type="button" className="small" onClick={() => location.reload()}>
            Reload
          </button>
        )}
      </span>
      {!onRetry && (
        <button
          type="button"
          className="small"
          onClick={() => useUi.setState({ crash: null })}
          aria-label="Dismiss error"
        >
          ×
        </button>
      )}
    </div>
  );
}

/** The page-wide error message (from the global handlers), when there is one. */
export function CrashBanner() {
  const crash = useUi((s) => s.crash);
  return crash ? <CrashMessage message={crash} /> : null;
}
