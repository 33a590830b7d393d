/**
 * One compact card per worker (GPU replica): running batch and waiting queue (count, a bar of the
 * requests by client, then a few request chips flowing in rows and "+ N more"), KV cache occupancy
 * (used / total blocks), prefix-cache hit rate, last step time, and its radix prefix tree in a
 * collapsible section. In this view colour means client only (no class is drawn here), and each chip
 * also carries its client's shape, as in Class queues, so the client reads without colour; the legend
 * under the cards names both. The client of a request comes from the snapshot, not from its id.
 */
import { Term } from '../Glossary';
import { type CSSProperties, useContext, useRef, useState } from 'react';
import { fmtCount, fmtPercent, fmtStepMs } from './format';
import { CLIENT_SHAPES, clientShape, colorFor } from './palette';
import { clusterOf, readClients, readWorkers, type WorkerModel } from './read';
import { RadixTree } from './RadixTree';
import { ServiceScaleContext } from './scale-context';
import type { Highlight, ViewProps } from './types';
import { useReserve } from './use-reserve';

/** Request chips shown per list before "+ N more": a busy worker's card stays a few rows tall. */
export const IDS_SHOWN = 6;

/** Requests per client among `ids` (each request's client from the snapshot), in client colour order; unknown last. */
export function clientMix(
  ids: readonly string[],
  clientIndex: Map<string, number>,
  clientOf: ReadonlyMap<string, string>,
): { client: string; index: number | null; n: number }[] {
  const counts = new Map<string, number>();
  for (const id of ids) {
    const c = clientOf.get(id) ?? '?';
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  return [...counts.entries()]
    .map(([client, n]) => ({ client, index: clientIndex.get(client) ?? null, n }))
    .sort(
      (a, b) =>
        (a.index ?? 1e9) - (b.index ?? 1e9) || (a.client < b.client ? -1 : a.client > b.client ? 1 : 0),
    );
}

/** A stacked bar of a request list by client, with the counts as its text alternative. */
function MixBar({
  ids,
  clientIndex,
  clientOf,
  what,
}: {
  ids: string[];
  clientIndex: Map<string, number>;
  clientOf: ReadonlyMap<string, string>;
  what: string;
}) {
  if (ids.length === 0) return null;
  const mix = clientMix(ids, clientIndex, clientOf);
  const text = mix.map((m) => `${m.client} ${m.n}`).join(', ');
  return (
    <div className="wk-mix" role="img" aria-label={`${what} by client: ${text}`} title={text}>
      {mix.map((m) => (
        <div
          key={m.client}
          className="wk-mix-part"
          style={{
            flexGrow: m.n,
            background: m.index === null ? 'var(--muted)' : colorFor(m.index),
          }}
        />
      ))}
    </div>
  );
}

function kvFraction(w: WorkerModel): number | null {
  if (w.kvUsed === null || w.kvTotal === null || w.kvTotal <= 0) return null;
  return Math.max(0, Math.min(1, w.kvUsed / w.kvTotal));
}

function describeWorker(w: WorkerModel): string {
  const kv = kvFraction(w);
  return (
    `Worker ${w.id}: ${fmtCount(w.runningCount)} running, ${fmtCount(w.waitingCount)} waiting` +
    (kv !== null
      ? `, KV cache ${fmtCount(w.kvUsed)} of ${fmtCount(w.kvTotal)} blocks (${fmtPercent(kv)})`
      : '') +
    (w.hitRate !== null ? `, prefix hit rate ${fmtPercent(w.hitRate)}` : '') +
    (w.lastStepMs !== null ? `, last step ${fmtStepMs(w.lastStepMs)}` : '')
  );
}

/**
 * When the playhead stands inside one event's decisions (an arrival is queued, popped and
 * dispatched; a step's end completes requests, then admits others), the cards already show the
 * state after the last of them: say so, with numbers.
 */
function StateAhead({ snapshot }: { snapshot: ViewProps['snapshot'] }) {
  const cluster = clusterOf(snapshot);
  if (cluster?.state_decisions === undefined) return null;
  const at = cluster.decisions;
  const after = cluster.state_decisions;
  return (
    <p className="wk-ahead" role="note">
      {after === at + 1
        ? `The views show the state after decision ${after}, which the simulation took in the same event as decision ${at} (the log hands decisions out one at a time).`
        : `The views show the state after decision ${after}: decisions ${at + 1}–${after} were taken in the same event as decision ${at} (the log hands them out one at a time).`}
    </p>
  );
}

export function Workers({ snapshot, highlight, onSelect }: ViewProps) {
  // in a tour the cards keep the most room any step needed, so the charts after them stay put
  const reserve = useContext(ServiceScaleContext)?.reserve ?? null;
  const [gridRef, gridStyle] = useReserve<HTMLDivElement>(reserve, 'workers');
  const workers = readWorkers(snapshot);
  if (workers.length === 0) {
    return (
      <section className="panel view wk-view" aria-label="Workers">
        <h2>Workers</h2>
        <p className="empty">
          No workers in this snapshot: the DRR sandbox has no cluster. Load a cluster scenario (with
          <code>cluster:</code>) to see each worker's batch, KV cache and prefix tree.
        </p>
      </section>
    );
  }
  const clients = readClients(snapshot);
  const clientIndex = new Map(clients.map((c) => [c.name, c.index]));
  const summary = `${workers.length} worker${workers.length === 1 ? '' : 's'}. ${workers.map(describeWorker).join('. ')}.`;
  return (
    <section
      className="panel view wk-view"
      aria-label="Workers"
      data-workers={workers.length}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a focused view takes ← / → to move the playhead
      tabIndex={0}
      aria-keyshortcuts="ArrowLeft ArrowRight"
    >
      <h2>
        Workers{' '}
        <span className="view-sub">
          {workers.length} replica{workers.length === 1 ? '' : 's'}
        </span>
      </h2>
      <p className="vh">{summary}</p>
      <StateAhead snapshot={snapshot} />
      <div className="wk-grid" ref={gridRef} style={gridStyle}>
        {workers.map((w) => (
          <WorkerCard
            key={w.id}
            w={w}
            clientIndex={clientIndex}
            highlight={highlight ?? null}
            onSelect={onSelect}
          />
        ))}
      </div>
      {clients.length > 0 && (
        <p className="legend wk-legend">
          <span className="wk-client-key">
            client (colour and shape):{' '}
            {clients.slice(0, CLIENT_SHAPES.length).map((c) => (
              <span
                key={c.name}
                className="wk-client-item"
                style={{ '--chip-color': colorFor(c.index) } as CSSProperties}
              >
                <span className="wk-shape" aria-hidden="true">
                  {clientShape(c.index)}
                </span>{' '}
                {c.name}
              </span>
            ))}
          </span>
          <span>bar = requests by client</span>
          <span>
            chip = one request: the first {IDS_SHOWN} of each list; “+ N more” lists the rest the snapshot
            holds
          </span>
        </p>
      )}
    </section>
  );
}

function IdList({
  ids,
  total,
  clientIndex,
  clientOf,
  selected,
  label,
}: {
  ids: string[];
  total: number;
  clientIndex: Map<string, number>;
  clientOf: ReadonlyMap<string, string>;
  selected: string | null;
  label: string;
}) {
  const [open, setOpen] = useState(false);
  const moreRef = useRef<HTMLButtonElement>(null);
  if (total === 0 && ids.length === 0) return null;
  // opened, every request the snapshot lists (the first 50 of a queue), as a grid as wide as the row
  const shown = open ? ids : ids.slice(0, IDS_SHOWN);
  const more = Math.max(0, Math.max(total, ids.length) - shown.length);
  const canOpen = ids.length > IDS_SHOWN;
  // folding from the list's end: the toggle at its top takes the focus and comes into sight
  const fold = () => {
    setOpen(false);
    requestAnimationFrame(() => {
      moreRef.current?.focus({ preventScroll: true });
      moreRef.current?.scrollIntoView({ block: 'nearest' });
    });
  };
  return (
    <ul className={`wk-ids${open ? ' open' : ''}`} aria-label={label}>
      {canOpen && open && (
        <li className="more wk-fold">
          <button
            type="button"
            className="link"
            aria-expanded={open}
            title="Show the first few only"
            ref={moreRef}
            onClick={() => setOpen(false)}
          >
            fewer
          </button>
          <span className="wk-listed">
            {` all ${fmtCount(ids.length)} listed${more > 0 ? `, + ${fmtCount(more)} not in the snapshot` : ''}`}
          </span>
        </li>
      )}
      {shown.map((id) => {
        const client = clientOf.get(id);
        const idx = client !== undefined ? clientIndex.get(client) : undefined;
        const style = { '--chip-color': idx !== undefined ? colorFor(idx) : 'var(--muted)' } as CSSProperties;
        return (
          <li
            key={id}
            style={style}
            className={selected === id ? 'selected' : undefined}
            title={client !== undefined ? `${id} (client ${client})` : id}
            data-request={id}
          >
            {idx !== undefined && (
              <span className="wk-shape" aria-hidden="true">
                {clientShape(idx)}
              </span>
            )}
            {id}
          </li>
        );
      })}
      {canOpen && !open && (
        <li className="more">
          <button
            type="button"
            className="link"
            aria-expanded={open}
            title={`List the first ${fmtCount(ids.length)} in order`}
            ref={moreRef}
            onClick={() => setOpen(true)}
          >
            {`+ ${fmtCount(more)} more`}
          </button>
        </li>
      )}
      {canOpen && open && (
        <li className="more wk-fold">
          <button type="button" className="link" onClick={fold}>
            back to the first {IDS_SHOWN}
          </button>
        </li>
      )}
      {!canOpen && more > 0 && <li className="more">+ {fmtCount(more)} more</li>}
    </ul>
  );
}

function WorkerCard({
  w,
  clientIndex,
  highlight,
  onSelect,
}: {
  w: WorkerModel;
  clientIndex: Map<string, number>;
  highlight: Highlight | null;
  onSelect?: (h: Highlight) => void;
}) {
  const kv = kvFraction(w);
  const selReq = highlight?.request ?? null;
  const selected =
    highlight?.worker === w.id ||
    (selReq !== null && (w.running.includes(selReq) || w.waiting.includes(selReq)));
  const radix = w.radix;
  const radixLabel = radix
    ? `Radix prefix tree of worker ${w.id}: ${fmtCount(radix.nodeCount ?? radix.nodes.length)} nodes` +
      (radix.cachedTokens !== null ? `, ${fmtCount(radix.cachedTokens)} cached tokens` : '') +
      (radix.nodeCount !== null && radix.nodeCount > radix.nodes.length
        ? ` (the ${radix.nodes.length} most recently used shown)`
        : '')
    : '';
  return (
    <article
      className={`wk-card${selected ? ' selected' : ''}`}
      data-worker={w.id}
      aria-label={`Worker ${w.id}`}
    >
      <h3>
        {onSelect ? (
          <button type="button" className="linklike" onClick={() => onSelect({ worker: w.id })}>
            Worker {w.id}
          </button>
        ) : (
          <span>Worker {w.id}</span>
        )}
        <span className="wk-step" title="duration of the worker's last batch step">
          <Term id="step-ms">step</Term> {w.lastStepMs === null ? '–' : fmtStepMs(w.lastStepMs)}
        </span>
      </h3>
      <dl className="wk-stats">
        <dt>running</dt>
        <dd className="wk-count" data-running={w.runningCount}>
          <span className="wk-n">{fmtCount(w.runningCount)}</span>
          <MixBar
            ids={w.running}
            clientIndex={clientIndex}
            clientOf={w.clientOf}
            what={`running on worker ${w.id}`}
          />
        </dd>
        {w.running.length > 0 && (
          <dd className="wk-chips">
            <IdList
              ids={w.running}
              total={w.runningCount}
              clientIndex={clientIndex}
              clientOf={w.clientOf}
              selected={selReq}
              label={`running on worker ${w.id}`}
            />
          </dd>
        )}
        <dt>waiting</dt>
        <dd className="wk-count" data-waiting={w.waitingCount}>
          <span className="wk-n">{fmtCount(w.waitingCount)}</span>
          <MixBar
            ids={w.waiting}
            clientIndex={clientIndex}
            clientOf={w.clientOf}
            what={`waiting on worker ${w.id}${w.waitingCount > w.waiting.length ? ` (first ${w.waiting.length})` : ''}`}
          />
        </dd>
        {(w.waiting.length > 0 || w.waitingCount > 0) && (
          <dd className="wk-chips">
            <IdList
              ids={w.waiting}
              total={w.waitingCount}
              clientIndex={clientIndex}
              clientOf={w.clientOf}
              selected={selReq}
              label={`waiting on worker ${w.id}`}
            />
          </dd>
        )}
        <dt>KV blocks</dt>
        <dd className="wk-kv-line" data-kv-used={w.kvUsed ?? ''} data-kv-total={w.kvTotal ?? ''}>
          {kv === null ? (
            '–'
          ) : (
            <>
              <span className="wk-kv-text" title="KV cache blocks in use / total">
                {fmtCount(w.kvUsed)} / {fmtCount(w.kvTotal)} ({fmtPercent(kv)})
              </span>
              <div className={`wk-kv${kv >= 0.95 ? ' full' : ''}`} aria-hidden="true">
                <div style={{ width: `${Math.round(kv * 1000) / 10}%` }} />
              </div>
            </>
          )}
        </dd>
        <dt>prefix hits</dt>
        <dd>{w.hitRate === null ? '–' : fmtPercent(w.hitRate)}</dd>
      </dl>
      {radix && (
        <details open={highlight?.node !== undefined && highlight?.worker === w.id ? true : undefined}>
          <summary>
            radix tree · {fmtCount(radix.nodeCount ?? radix.nodes.length)} nodes
            {radix.cachedTokens !== null ? ` · ${fmtCount(radix.cachedTokens)} tokens` : ''}
          </summary>
          <RadixTree
            nodes={radix.nodes}
            highlightNode={
              highlight?.worker === w.id || highlight?.worker === undefined ? (highlight?.node ?? null) : null
            }
            label={radixLabel}
          />
          <p className="legend">
            <span>width ∝ tokens in the subtree</span>
            <span>filled blue = locked by a running request</span>
            {radix.nodeCount !== null && radix.nodeCount > radix.nodes.length && (
              <span>
                {radix.nodes.length} most recently used of {fmtCount(radix.nodeCount)} nodes
              </span>
            )}
          </p>
        </details>
      )}
    </article>
  );
}
