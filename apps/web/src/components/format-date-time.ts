// "25 Nov 26, 21:58" in the viewer's local time, as the worklist shows a study's date: built from
// Intl parts (English month abbreviations, 24-hour clock) so the worklist loads no date library.
const PARTS = new Intl.DateTimeFormat('en-US', {
  day: '2-digit',
  month: 'short',
  year: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

export function formatShortDateTime(when: Date): string {
  const part = Object.fromEntries(PARTS.formatToParts(when).map((p) => [p.type, p.value]));
  return `${part.day} ${part.month} ${part.year}, ${part.hour}:${part.minute}`;
}
