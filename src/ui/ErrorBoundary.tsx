import { Component, type ReactNode } from 'react';
import { CrashMessage } from './CrashMessage';
import { describeError, reportUnexpected } from './errors';

/**
 * A render error in any part of the page shows the message and a way back instead of a blank page.
 * "Try again" mounts the part anew; the stores (run, editors' texts) are untouched.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: string | null }> {
  override state = { error: null as string | null };

  static getDerivedStateFromError(err: unknown) {
    return { error: describeError(err) };
  }

  override componentDidCatch(err: unknown) {
    reportUnexpected(err);
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    return <CrashMessage message={this.state.error} onRetry={() => this.setState({ error: null })} />;
  }
}
