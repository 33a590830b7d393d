/**
 * Per policy class, the waiting requests in the order they would leave the class heap (head first),
 * as compact chips: id, cost, priority, age (now − arrival). One meaning per colour in this view: the
 * chip's edge takes its class's colour (as on the ring); the client is a shape (and its name in the
 * chip's title), so colour never means two things. The selected request is outlined.
 */
import type { CSSProperties } from 'react';
import { fmtCount, fmtNum, fmtSeconds } from './format';
import { CLIENT_SHAPES, clientShape, colorFor } from './palette';
import type { QueuedRequestView } from '../../core/drr/queued-view';
import { readClients, readDrr, simTime } from './read';
import type { ViewProps } from './types';

/** Chips shown per class before "+ N more" (the head and the next few are what a lesson reads). */
export const CHIPS_PER_CLASS = 12;

function chipTitle(r: QueuedRequestView, cls: string, now: number | null, position: number): string {
  const parts = [`${r.id} in ${cls}, position ${position + 1}${position === 0 ? ' (head)' : ''}`];
  if (r.client !== null) parts.push(`client ${r.client}`);
  parts.push(`cost ${fmtCount(r.cost)} uncached tokens`);
  parts.push(`input ${fmtCount(r.raw_isl)} tokens, ${fmtCount(r.cached)} cached`);
  parts.push(`priority ${fmtNum(r.priority)}`);
  if (r.strict_priority) parts.push(`strict tier ${r.strict_priority}`);
  parts.push(
    now === null
      ? `arrival ${fmtNum(r.arrival_s)} (the script's, else its op number)`
      : `arrived at ${fmtSeconds(r.arrival_s)}`,
  );
  if (now !== null) parts.push(`waiting ${fmtSeconds(Math.max(0, now - r.arrival_s))}`);
  if (r.worker >= 0) parts.push(`pinned to worker ${r.worker}: waits in that worker's lane until it is free`);
  if (r.due_s !== null) parts.push(dueTitle(r.due_s, now));
  return parts.join(', ');
}

/** The due time in words for the chip's title: when, and in a cluster run how far off or late. */
function dueTitle(due: number, now: number | null): string {
  if (now === null)
    return `due at ${fmtNum(due)} (due_at: shed unserved once a pop after it looks at its class)`;
  const left = due - now;
  return `due at ${fmtSeconds(due)} (${left >= 0 ? `in ${fmtSeconds(left)}` : `${fmtSeconds(-left)} late`}; shed unserved once past it)`;
}

/** The chip's lane and due line ("worker 0 · due 2"), or null when it is neither pinned nor due. */
export function laneLine(r: QueuedRequestView, now: number | null): string | null {
  const parts: string[] = [];
  if (r.worker >= 0) parts.push(`worker ${r.worker}`);
  if (r.due_s !== null) parts.push(now === null ? `due ${fmtNum(r.due_s)}` : `due ${fmtSeconds(r.due_s)}`);
  return parts.length > 0 ? parts.join(' · ') : null;
}

export function ClassQueues({ snapshot, highlight, onSelect }: ViewProps) {
  const drr = readDrr(snapshot);
  if (!drr || drr.classes.length === 0) {
    return (
      <section className="panel view cq-view view-empty" aria-label="Class queues">
        <h2>Class queues</h2>
        <p className="empty">
          No policy-class queues in this scenario: add <code>router.policy</code> (or load a DRR arbitration
          script) to see requests waiting per class.
        </p>
      </section>
    );
  }
  // the sandbox has no clock: its arrival times are the script's (the op index unless it sets them)
  const sandbox = snapshot?.kind === 'arbitration';
  const now = sandbox ? null : simTime(snapshot);
  const clients = readClients(snapshot);
  const clientIndex = new Map(clients.map((c) => [c.name, c.index]));
  const ahead = drr.stateAfter;
  const total = drr.classes.reduce((s, c) => s + c.queued, 0);
  const selReq = highlight?.request ?? null;
  const selClass = highlight?.class ?? null;
  const pinnedOrDue = [...(drr.queues?.values() ?? [])].some((q) =>
    q.some((r) => r.worker >= 0 || r.due_s !== null),
  );

  return (
    <section
      className="panel view cq-view"
      aria-label="Class queues"
      data-queued={total}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a focused view takes ← / → to move the playhead
      tabIndex={0}
      aria-keyshortcuts="ArrowLeft ArrowRight"
    >
      <h2>
        Class queues <span className="view-sub">{fmtCount(total)} waiting · head first</span>
      </h2>
      {ahead !== null && snapshot && (
        <p className="wk-ahead" role="note">
          {`The queues are the state after decision ${fmtCount(ahead)}, the end of the event decision ${fmtCount(snapshot.decisions)} is in (the log hands its decisions out one at a time).`}
        </p>
      )}
      {total === 0 && (
        <p className="empty cq-all-empty">All empty: enqueue requests or step the run. Classes:</p>
      )}
      {/* all empty: the classes are one wrapped line of names, and the chips' legend has nothing to explain */}
      <ul className={`cq-list${total === 0 ? ' all-empty' : ''}`}>
        {drr.classes.map((c, ci) => {
          const reqs = drr.queues?.get(c.name) ?? null;
          const shown = reqs ? reqs.slice(0, CHIPS_PER_CLASS) : [];
          const hidden = reqs ? Math.max(0, Math.max(reqs.length, c.queued) - shown.length) : 0;
          const selected =
            selClass === c.name || (selReq !== null && (reqs ?? []).some((r) => r.id === selReq));
          return (
            <li
              key={c.name}
              className={`cq-class${selected ? ' selected' : ''}${c.queued === 0 && shown.length === 0 ? ' empty' : ''}`}
              data-class={c.name}
              data-queued={c.queued}
            >
              <div className="cq-name">
                <span className="swatch" style={{ background: colorFor(ci) }} aria-hidden="true" />
                <span className="cq-class-name">{c.name}</span>
                <span className="cq-count" hidden={total === 0}>
                  {fmtCount(c.queued)} queued{c.blocked && c.queued > 0 ? ' · blocked' : ''}
                  {/* an empty queue is one short row: its state rides on the name's line */}
                  {c.queued === 0 && shown.length === 0 && total > 0 ? ' · empty' : ''}
                </span>
              </div>
              {reqs === null ? (
                c.queued > 0 && (
                  <p className="hint">{`${fmtCount(c.queued)} waiting · request ids not in this snapshot`}</p>
                )
              ) : shown.length === 0 ? (
                c.queued > 0 && <p className="hint">request ids not in this snapshot</p>
              ) : (
                <ol className="cq-chips" aria-label={`${c.name} queue, head first`}>
                  {shown.map((r, i) => {
                    const color = colorFor(ci);
                    const ciOf = r.client !== null ? clientIndex.get(r.client) : undefined;
                    const isSel = selReq === r.id;
                    const cls = `cq-chip${i === 0 ? ' head' : ''}${isSel ? ' selected' : ''}`;
                    const lane = laneLine(r, now);
                    const body = (
                      <>
                        <span className="cq-id">
                          {ciOf !== undefined && (
                            <span className="cq-client" aria-hidden="true">
                              {clientShape(ciOf)}{' '}
                            </span>
                          )}
                          {r.id}
                        </span>
                        <span className="cq-meta">
                          {`c ${fmtNum(r.cost)}`}
                          {r.priority !== 0 ? ` · p ${fmtNum(r.priority)}` : ''}
                          {r.strict_priority ? ` · tier ${r.strict_priority}` : ''}
                          {now !== null
                            ? ` · ${fmtSeconds(Math.max(0, now - r.arrival_s))}`
                            : ` · arrival ${fmtNum(r.arrival_s)}${sandbox ? '' : ' s'}`}
                        </span>
                        {lane !== null && <span className="cq-lane">{lane}</span>}
                      </>
                    );
                    const title = chipTitle(r, c.name, now, i);
                    const style = { '--chip-color': color } as CSSProperties;
                    return (
                      <li key={r.id} data-request={r.id} aria-current={isSel ? 'true' : undefined}>
                        {onSelect ? (
                          <button
                            type="button"
                            className={cls}
                            style={style}
                            title={title}
                            onClick={() =>
                              onSelect({ request: r.id, class: c.name, client: r.client ?? undefined })
                            }
                          >
                            {body}
                          </button>
                        ) : (
                          <span className={cls} style={style} title={title}>
                            {body}
                          </span>
                        )}
                      </li>
                    );
                  })}
                  {hidden > 0 && <li className="cq-more">+ {fmtCount(hidden)} more</li>}
                </ol>
              )}
            </li>
          );
        })}
      </ul>
      {total > 0 && (
        <p className="legend">
          <span>c = cost (uncached tokens)</span>
          <span>p = priority</span>
          <span>
            {now !== null
              ? 'age = now − arrival'
              : sandbox
                ? "arrival = the script's arrival, else its op number"
                : 'arrival = arrival time (s)'}
          </span>
          {pinnedOrDue && (
            <span>worker n = pinned to worker n (waits in its lane); due = due time (due_at)</span>
          )}
          <span>framed chip = class head</span>
          <span>edge colour = class</span>
          {clients.length > 0 && drr.queues && (
            <span className="cq-client-key">
              shape = client:{' '}
              {clients.slice(0, CLIENT_SHAPES.length).map((c) => (
                <span key={c.name} className="cq-client-item">
                  {clientShape(c.index)} {c.name}{' '}
                </span>
              ))}
            </span>
          )}
        </p>
      )}
    </section>
  );
}
