/**
 * A worker's radix prefix tree from the snapshot's bounded node summary (breadth first, so a parent
 * always precedes its children): a left-to-right d3 tree, node size ∝ √tokens, locked nodes (used by
 * running requests) filled, and the path to a highlighted node drawn thick.
 */
import { hierarchy, tree } from 'd3';
import { fmtCount } from './format';
import type { RadixNodeModel } from './read';

interface TreeDatum {
  id: number;
  tokens: number;
  lock: number;
  children: TreeDatum[];
}

/** Build the tree; nodes whose parent is missing from the summary hang off the root (id 0). */
export function buildRadixTree(nodes: readonly RadixNodeModel[]): TreeDatum {
  const root: TreeDatum = { id: 0, tokens: 0, lock: 0, children: [] };
  const byId = new Map<number, TreeDatum>([[0, root]]);
  for (const n of nodes) {
    if (byId.has(n.id)) continue;
    byId.set(n.id, { id: n.id, tokens: n.tokens, lock: n.lock, children: [] });
  }
  for (const n of nodes) {
    const me = byId.get(n.id);
    if (!me || me === root) continue;
    const parent = (n.parent !== null ? byId.get(n.parent) : undefined) ?? root;
    if (parent === me) root.children.push(me);
    else parent.children.push(me);
  }
  // Guard against cycles from malformed input: keep only nodes reachable from the root once.
  const seen = new Set<TreeDatum>();
  const prune = (d: TreeDatum) => {
    seen.add(d);
    d.children = d.children.filter((c) => !seen.has(c));
    for (const c of d.children) prune(c);
  };
  prune(root);
  return root;
}

function r1(x: number): number {
  return Math.round(x * 10) / 10;
}

export function RadixTree({
  nodes,
  highlightNode,
  label,
}: {
  nodes: readonly RadixNodeModel[];
  highlightNode: number | null;
  label: string;
}) {
  if (nodes.length === 0) return <p className="hint">The prefix cache is empty.</p>;
  const root = hierarchy(buildRadixTree(nodes));
  const leaves = root.leaves().length;
  const depth = root.height;
  const W = 300;
  const H = Math.max(60, Math.min(900, leaves * 16 + 16));
  const layout = tree<TreeDatum>().size([H - 16, W - 40]);
  const laid = layout(root);
  const maxTokens = Math.max(1, ...nodes.map((n) => n.tokens));
  const radius = (tokens: number) => 2.5 + 5.5 * Math.sqrt(tokens / maxTokens);
  const onPath = new Set<number>();
  if (highlightNode !== null) {
    const hit = laid.descendants().find((d) => d.data.id === highlightNode);
    for (let n = hit ?? null; n; n = n.parent) onPath.add(n.data.id);
  }
  const showLabels = nodes.length <= 24;
  const pos = (d: { x: number; y: number }) => ({ px: r1(d.y + 12), py: r1(d.x + 8) });
  return (
    <svg className="radix-svg" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label}>
      <title>{label}</title>
      {laid.links().map((l) => {
        const a = pos(l.source);
        const b = pos(l.target);
        const mid = r1((a.px + b.px) / 2);
        return (
          <path
            key={`${l.source.data.id}-${l.target.data.id}`}
            className={`radix-link${onPath.has(l.target.data.id) ? ' on-path' : ''}`}
            d={`M${a.px},${a.py}C${mid},${a.py} ${mid},${b.py} ${b.px},${b.py}`}
          />
        );
      })}
      {laid.descendants().map((d) => {
        const p = pos(d);
        const isRoot = d.depth === 0;
        return (
          <g key={d.data.id} data-node={d.data.id}>
            <circle
              className={`radix-node${d.data.lock > 0 ? ' locked' : ''}${onPath.has(d.data.id) ? ' on-path' : ''}`}
              cx={p.px}
              cy={p.py}
              r={isRoot ? 3 : r1(radius(d.data.tokens))}
            >
              <title>
                {isRoot
                  ? 'root'
                  : `node ${d.data.id}: ${fmtCount(d.data.tokens)} tokens${d.data.lock > 0 ? `, locked by ${d.data.lock}` : ', unlocked'}`}
              </title>
            </circle>
            {showLabels && !isRoot && (
              <text className="radix-label" x={p.px + 8} y={p.py} dy="0.32em">
                {fmtCount(d.data.tokens)}
              </text>
            )}
          </g>
        );
      })}
      {depth === 0 && (
        <text className="radix-label" x={20} y={H / 2}>
          root only
        </text>
      )}
    </svg>
  );
}
