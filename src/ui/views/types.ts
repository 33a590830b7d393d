export interface Highlight {
  request?: string;
  client?: string;
  worker?: number;
  class?: string;
}

export interface ViewProps {
  snapshot: Record<string, unknown> | null;
  highlight?: Highlight | null;
}
