/**
 * Embed mode: the playground reduced to a few chosen panels and a minimal control strip, for slides
 * and documentation pages.
 *
 * How a page ends up in embed mode (resolveEmbed):
 * - `?embed=1` in the query (before the `#s=` fragment) switches it on; `?embed=0` switches it off,
 *   even inside an iframe (for a page that embeds the whole playground);
 * - otherwise a page shown inside a frame (`window.self !== window.top`) is in embed mode.
 *
 * Which panels show: `&panels=ring,queues,clients,workers,figures,guarantees,log` in the query (a
 * comma list; unknown names are ignored), else the `embed.panels` list carried by the share link's
 * state (codec.ts), else every panel the scenario has. Panels always appear in the playground's
 * order, whatever order the list gives. Pure: no DOM here, so Node tests it directly.
 */

/** Panel names, in the order the embed view lays them out. */
export const EMBED_PANELS = ['ring', 'queues', 'clients', 'workers', 'figures', 'guarantees', 'log'] as const;
export type EmbedPanel = (typeof EMBED_PANELS)[number];

/** The accessible name of each panel's region (the product contract's names). */
export const PANEL_REGION: Record<EmbedPanel, string> = {
  ring: 'DRR ring',
  queues: 'Class queues',
  clients: 'Client service',
  workers: 'Workers',
  figures: 'Figures',
  guarantees: 'Guarantees',
  log: 'Decision log',
};

/** Panels a DRR sandbox script has (it has no cluster). */
export const SANDBOX_PANELS: readonly EmbedPanel[] = ['ring', 'queues', 'log'];

export interface EmbedConfig {
  /** Chosen panels in layout order (never empty). */
  panels: EmbedPanel[];
}

/** Known names from a list, deduplicated, in layout order; null when none is known. */
export function cleanPanels(names: readonly unknown[]): EmbedPanel[] | null {
  const chosen = new Set(names.filter((n): n is string => typeof n === 'string').map((n) => n.trim()));
  const out = EMBED_PANELS.filter((p) => chosen.has(p));
  return out.length ? out : null;
}

/** Panels from the `panels` query value (`ring,log`); null when absent or when no name is known. */
export function parsePanels(text: string | null | undefined): EmbedPanel[] | null {
  if (!text) return null;
  return cleanPanels(text.toLowerCase().split(','));
}

/**
 * Embed mode from the page's query string, whether it is framed, and the share link's panels (if any).
 * Null: the full playground.
 */
export function resolveEmbed(opts: {
  search: string;
  framed: boolean;
  sharedPanels?: readonly unknown[] | null;
}): EmbedConfig | null {
  const q = new URLSearchParams(opts.search);
  const flag = q.get('embed');
  const on = flag === '1' || flag === 'true' || (flag !== '0' && flag !== 'false' && opts.framed);
  if (!on) return null;
  const panels = parsePanels(q.get('panels')) ??
    (opts.sharedPanels ? cleanPanels(opts.sharedPanels) : null) ?? [...EMBED_PANELS];
  return { panels };
}

/** True inside a frame; a cross-origin parent makes `top` unreadable, which also means framed. */
export function isFramed(win: { self: unknown; top: unknown }): boolean {
  try {
    return win.self !== win.top;
  } catch {
    return true;
  }
}

/**
 * The embed address for a page address: `embed=1` and `panels=...` set in its query (other query
 * keys kept), the fragment (the share link) unchanged.
 */
export function embedUrl(href: string, panels: readonly EmbedPanel[]): string {
  const url = new URL(href);
  url.searchParams.set('embed', '1');
  url.searchParams.set('panels', (cleanPanels(panels) ?? [...EMBED_PANELS]).join(','));
  // Commas read better than %2C and are legal in a query.
  url.search = url.search.replaceAll('%2C', ',');
  return url.toString();
}

/** The full playground for an embed address: `embed` and `panels` removed, fragment kept. */
export function fullUrl(href: string): string {
  const url = new URL(href);
  url.searchParams.delete('embed');
  url.searchParams.delete('panels');
  return url.toString();
}

function escapeAttr(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

export const EMBED_SIZE = { width: 960, height: 600 };

/** The `<iframe>` snippet to paste into a slide or a documentation page. */
export function embedSnippet(src: string, size: { width: number; height: number } = EMBED_SIZE): string {
  return `<iframe src="${escapeAttr(src)}" width="${size.width}" height="${size.height}" title="Fairground playground" style="border:0;max-width:100%" loading="lazy"></iframe>`;
}
