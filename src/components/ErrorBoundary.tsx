import { Component, type ReactNode } from 'react';

interface Props {
  /** What shows instead of the children once they threw. */
  fallback: (error: unknown) => ReactNode;
  /** A new value clears the error and renders the children again (e.g. the path). */
  resetKey?: unknown;
  children: ReactNode;
}

interface State {
  failed: boolean;
  error?: unknown;
  resetKey: unknown;
}

/** Catches what its children throw while rendering (a chunk that failed to load, a bug). */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { failed: true, error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return Object.is(props.resetKey, state.resetKey)
      ? null
      : { resetKey: props.resetKey, failed: false, error: undefined };
  }

  override render() {
    return this.state.failed ? this.props.fallback(this.state.error) : this.props.children;
  }
}
