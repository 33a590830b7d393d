import { Fragment } from 'react';
import { type Inline, parseMarkdownish } from './markdown';

function Runs({ inlines }: { inlines: Inline[] }) {
  return (
    <>
      {inlines.map((r, i) => {
        const key = `${i}:${r.kind}`;
        if (r.kind === 'code') return <code key={key}>{r.text}</code>;
        if (r.kind === 'strong') return <strong key={key}>{r.text}</strong>;
        if (r.kind === 'em') return <em key={key}>{r.text}</em>;
        return <Fragment key={key}>{r.text}</Fragment>;
      })}
    </>
  );
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
          default: {
            const items = b.items.map((it, j) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: list items have no identity beyond their place
              <li key={j}>
                <Runs inlines={it} />
              </li>
            ));
            return b.kind === 'ul' ? (
              <ul key={key}>{items}</ul>
            ) : (
              <ol key={key} start={b.start}>
                {items}
              </ol>
            );
          }
        }
      })}
    </div>
  );
}
