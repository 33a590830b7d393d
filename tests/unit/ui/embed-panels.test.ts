import { describe, expect, it } from 'vitest';
import {
  EMBED_PANELS,
  embedSnippet,
  embedUrl,
  fullUrl,
  isFramed,
  parsePanels,
  resolveEmbed,
} from '../../../src/ui/embed/panels';

describe('embed mode: when and which panels', () => {
  it('off on a plain top-level page, on with ?embed=1 or inside a frame', () => {
    expect(resolveEmbed({ search: '', framed: false })).toBe(null);
    expect(resolveEmbed({ search: '?editor=plain', framed: false })).toBe(null);
    expect(resolveEmbed({ search: '?embed=1', framed: false })).toEqual({ panels: [...EMBED_PANELS] });
    expect(resolveEmbed({ search: '', framed: true })).toEqual({ panels: [...EMBED_PANELS] });
  });
  it('?embed=0 keeps the full playground even in a frame', () => {
    expect(resolveEmbed({ search: '?embed=0', framed: true })).toBe(null);
  });
  it('query panels first, then the link panels, then all', () => {
    expect(resolveEmbed({ search: '?embed=1&panels=log,ring', framed: false })).toEqual({
      panels: ['ring', 'log'],
    });
    expect(resolveEmbed({ search: '?embed=1&panels=log', framed: false, sharedPanels: ['clients'] })).toEqual(
      { panels: ['log'] },
    );
    expect(resolveEmbed({ search: '', framed: true, sharedPanels: ['clients', 'x'] })).toEqual({
      panels: ['clients'],
    });
    expect(resolveEmbed({ search: '?embed=1&panels=zzz', framed: false })).toEqual({
      panels: [...EMBED_PANELS],
    });
  });
  it('parses the panels list leniently', () => {
    expect(parsePanels(' Ring , queues,,log,log ')).toEqual(['ring', 'queues', 'log']);
    expect(parsePanels('')).toBe(null);
    expect(parsePanels(null)).toBe(null);
  });
  it('treats an unreadable top (cross-origin parent) as framed', () => {
    const w = { self: 1, top: 1 };
    expect(isFramed(w)).toBe(false);
    expect(isFramed({ self: 1, top: 2 })).toBe(true);
    const hostile = {
      self: 1,
      get top(): unknown {
        throw new Error('SecurityError');
      },
    };
    expect(isFramed(hostile)).toBe(true);
  });
});

describe('embed addresses and snippet', () => {
  const link = 'https://example.org/fg/?editor=plain#s=1.abc';
  it('adds embed and panels to the query and keeps the fragment', () => {
    expect(embedUrl(link, ['log', 'ring'])).toBe(
      'https://example.org/fg/?editor=plain&embed=1&panels=ring,log#s=1.abc',
    );
    expect(embedUrl('http://h/?embed=0&panels=x#s=1.q', ['clients'])).toBe(
      'http://h/?embed=1&panels=clients#s=1.q',
    );
  });
  it('the full playground link drops them again', () => {
    expect(fullUrl(embedUrl(link, ['ring']))).toBe(link);
  });
  it('builds an escaped iframe snippet', () => {
    expect(embedSnippet('http://h/?embed=1&panels=ring#s=1."x"')).toBe(
      '<iframe src="http://h/?embed=1&amp;panels=ring#s=1.&quot;x&quot;" width="960" height="600" title="Fairground playground" style="border:0;max-width:100%" loading="lazy"></iframe>',
    );
  });
});
