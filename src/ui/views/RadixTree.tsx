/**
 * A worker's radix prefix tree from the snapshot's bounded node summary (breadth first, so a parent
 * always precedes its children), drawn as an icicle: locked nodes (used by running requests) filled,
 * and the path to a highlighted node outlined.
 */
import { hierarchy, partition } from 'd3';
import { useWidth } from './use-width';
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

const ROW_H = 20;
const DEFAULT_W = 300;
/** Width of a label's character at the labels' 14 px (digits and the separator), with room. */
const CHAR_W = 8.6;

/**
 * An icicle of the tree: one row per depth, each node's width ∝ the tokens in its subtree, so a wide,
 * shallow cache (many conversations under the root) stays compact and shows where the tokens are.
 */
export function RadixTree({
  nodes,
  highlightNode,
  label,
}: {
  nodes: readonly RadixNodeModel[];
  highlightNode: number | null;
  label: string;
}) {
  // drawn at 1:1 in the card's width, so its 14 px labels stay 14 px (a fixed 300-unit viewBox in a
  // 255 px card drew them at 11.9 px)
  const [boxRef, W] = useWidth<HTMLDivElement>(DEFAULT_W);
  if (nodes.length === 0)
    return (
      <div ref={boxRef}>
        <p className="hint">The prefix cache is empty.</p>
      </div>
    );
  const root = hierarchy(buildRadixTree(nodes))
    .sum((d) => Math.max(0, d.tokens))
    .sort((a, b) => (b.value ?? 0) - (a.value ?? 0) || a.data.id - b.data.id);
  if ((root.value ?? 0) <= 0) root.sum(() => 1);
  const H = (root.height + 1) * ROW_H;
  const laid = partition<TreeDatum>().size([W, H]).padding(1)(root);
  const onPath = new Set<number>();
  if (highlightNode !== null) {
    const hit = laid.descendants().find((d) => d.data.id === highlightNode);
    for (let n = hit ?? null; n; n = n.parent) onPath.add(n.data.id);
  }
  return (
    <div ref={boxRef}>
      <svg className="radix-svg" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label}>
        <title>{label}</title>
        {laid.descendants().map((d) => {
          const isRoot = d.depth === 0;
          const w = d.x1 - d.x0;
          const text = isRoot ? `root · ${fmtCount(d.value ?? 0)} tokens` : fmtCount(d.data.tokens);
          const cls = [
            'radix-cell',
            isRoot ? 'root' : '',
            d.data.lock > 0 && !isRoot ? 'locked' : '',
            onPath.has(d.data.id) ? 'on-path' : '',
          ]
            .filter(Boolean)
            .join(' ');
          return (
            <g key={d.data.id} data-node={d.data.id}>
              <rect
                className={cls}
                x={r1(d.x0)}
                y={r1(d.y0)}
                width={r1(Math.max(0.5, w))}
                height={r1(d.y1 - d.y0)}
              >
                <title>
                  {isRoot
                    ? `root: ${fmtCount(d.value ?? 0)} tokens in the nodes shown`
                    : `node ${d.data.id}: ${fmtCount(d.data.tokens)} tokens on its edge, ${fmtCount(d.value ?? 0)} in its subtree${d.data.lock > 0 ? `, locked by ${d.data.lock} running request(s)` : ', unlocked (evictable when a leaf)'}`}
                </title>
              </rect>
              {w >= text.length * CHAR_W + 6 && (
                <text className="radix-label" x={r1(d.x0 + 3)} y={r1(d.y0 + (d.y1 - d.y0) / 2)} dy="0.35em">
                  {text}
                </text>
              )}
            </g>
          );
        })}
      </svg>
    </div>
  );
}
