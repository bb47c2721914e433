// Reading what an engine recognised (the dictation grammar of @ris/domain) and turning a recording's
// transcript into report HTML.
import { parseDictation, segmentsToText, startsSentence, type TDictationSegment } from '@ris/domain';

/**
 * The segments of a final the engine gave as plain text (voice commands, punctuation, numbers);
 * `before` is the transcript so far, when known, so a final in mid-sentence is not capitalised.
 */
export function readDictation(text: string, before?: string): TDictationSegment[] {
  return parseDictation(text, before === undefined ? {} : { sentenceStart: startsSentence(before) });
}

/** A transcript as plain text: the segments' text, new line / new paragraph as line breaks. */
export function transcriptOf(segments: readonly TDictationSegment[]): string {
  return segmentsToText(segments).trim();
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A transcript as report HTML: paragraphs at blank lines, line breaks within them. */
export function transcriptHtml(transcript: string): string {
  return transcript
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '')
    .map((paragraph) => `<p>${paragraph.split('\n').map(escapeHtml).join('<br>')}</p>`)
    .join('');
}
