import { Fragment } from 'react';
import { type Inline, type ListBlock, parseMarkdownish } from './markdown';

/** Inline runs as React elements; bold and emphasis hold runs (at most MAX_NESTING deep). */
function Runs({ inlines }: { inlines: Inline[] }) {
  return (
    <>
      {inlines.map((r, i) => {
        const key = `${i}:${r.kind}`;
        if ('children' in r) {
          const Tag = r.kind;
          return (
            <Tag key={key}>
              <Runs inlines={r.children} />
            </Tag>
          );
        }
        if (r.kind === 'code') return <code key={key}>{r.text}</code>;
        return <Fragment key={key}>{r.text}</Fragment>;
      })}
    </>
  );
}

/**
 * A list, its items holding their later paragraphs and the lists nested under them, in the order
 * written (lists at most MAX_NESTING deep).
 */
function List({ list }: { list: ListBlock }) {
  const items = list.items.map((it, j) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: list items have no identity beyond their place
    <li key={j}>
      <Runs inlines={it.inlines} />
      {it.body?.map((b, k) =>
        b.kind === 'p' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: an item's blocks have no identity beyond their place
          <p key={k}>
            <Runs inlines={b.inlines} />
          </p>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: an item's blocks have no identity beyond their place
          <List key={k} list={b} />
        ),
      )}
    </li>
  ));
  return list.kind === 'ul' ? <ul>{items}</ul> : <ol start={list.start}>{items}</ol>;
}

/** Renders a description as React elements (text only: nothing is parsed as HTML). */
export function Markdownish({ text }: { text: string }) {
  const blocks = parseMarkdownish(text);
  return (
    <div className="prose">
      {blocks.map((b, i) => {
        const key = `${i}:${b.kind}`;
        switch (b.kind) {
          case 'p':
            return (
              <p key={key}>
                <Runs inlines={b.inlines} />
              </p>
            );
          case 'h':
            return (
              <h3 key={key}>
                <Runs inlines={b.inlines} />
              </h3>
            );
          case 'code':
            return (
              <pre key={key}>
                <code>{b.text}</code>
              </pre>
            );
          case 'more':
            return (
              <Fragment key={key}>
                <p className="prose-more">
                  Too long to format: the rest is shown as written
                  {b.omitted > 0 ? `, except its last ${b.omitted.toLocaleString('en-US')} characters` : ''}.
                </p>
                <pre>
                  <code>{b.text}</code>
                </pre>
              </Fragment>
            );
          default:
            return <List key={key} list={b} />;
        }
      })}
    </div>
  );
}
