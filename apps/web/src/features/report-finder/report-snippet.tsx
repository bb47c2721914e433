import type { TSnippetPart } from '@ris/domain';

/**
 * A snippet of a report: each part is text (React escapes it), a match is a <mark>. The server's
 * snippet is plain text, never HTML, and is never rendered as HTML here either.
 */
export function ReportSnippet({ parts }: { parts: readonly TSnippetPart[] }) {
  if (parts.length === 0) return <span className="text-fg-subtle">—</span>;
  return (
    <span className="line-clamp-2 leading-snug break-words whitespace-normal text-fg-muted">
      {parts.map((part, index) =>
        part.match ? (
          <mark key={index} className="rounded-sm bg-accent-soft px-0.5 font-semibold text-fg">
            {part.text}
          </mark>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </span>
  );
}
