/**
 * Whether this page is in embed mode, and with which panels. Decided once from the address and the
 * frame at startup; the share link's own panel list (if the query names none) is read after mount.
 */
import { create } from 'zustand';
import { decodeShare, isShareFragment } from '../share/codec';
import { type EmbedConfig, isFramed, parsePanels, resolveEmbed } from './panels';

function initial(): EmbedConfig | null {
  if (typeof window === 'undefined') return null;
  return resolveEmbed({ search: window.location.search, framed: isFramed(window) });
}

export const useEmbed = create<{ config: EmbedConfig | null }>(() => ({ config: initial() }));

/** When the query names no panels, the share link's `embed.panels` choose them. Never throws. */
export async function applySharedPanels(): Promise<void> {
  if (!useEmbed.getState().config) return;
  const { search, hash } = window.location;
  if (parsePanels(new URLSearchParams(search).get('panels')) || !isShareFragment(hash)) return;
  const res = await decodeShare(hash);
  if (!res.ok || !res.state.embed) return;
  const config = resolveEmbed({ search, framed: isFramed(window), sharedPanels: res.state.embed.panels });
  if (config) useEmbed.setState({ config });
}
