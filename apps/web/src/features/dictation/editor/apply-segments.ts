// What a final result does to the report: text inserted at the caret as an ordinary edit (so the
// collaboration brings it to co-editors), voice commands carried out.
import { startsSentence, type TDictationSegment } from '@ris/domain';
import type { Editor } from '@tiptap/core';
import { insertableContent } from '../../../components/rich-text/insertable-content.ts';
import { blockText, goToImpression, goToNextField, textblocks } from './report-navigation.ts';

/** The last dictated insertion, so "delete that" can take it back while it is still intact. */
export interface TDictatedInsertion {
  text: string;
  /** Where it started when it was inserted (a guide: co-editors' edits move it). */
  from: number;
  /** Up to 24 characters of the block before it, to find it again after other edits. */
  before: string;
}

/** A macro as dictation inserts it ("insert macro <short key>"). */
export interface TSpokenMacro {
  short_key: string;
  value: string;
}

/** Where "insert template" and "insert macro" find what they insert (given by the reporting screen). */
export interface TDictationSources {
  /** The template named (case-insensitively), or null. */
  findTemplate: (name: string) => Promise<{ content: string } | null>;
  /** The user's macros. */
  macros: () => readonly TSpokenMacro[];
}

export interface TDictationContext extends TDictationSources {
  /** "stop dictation". */
  stop: () => void;
  /** Something said could not be done (no field left, no such template…). */
  notice: (message: string) => void;
  /** Kept between finals by the caller. */
  last: { insertion: TDictatedInsertion | null };
}

/** The text as it goes in at the caret: a space after a word, a capital only at a sentence's start. */
export function spacedText(blockBefore: string, text: string): string {
  let out = text.trim();
  if (out === '') return '';
  // A hard break (or another inline leaf, U+FFFC in blockText) starts a new line.
  const textBefore = blockBefore.slice(blockBefore.lastIndexOf('\ufffc') + 1);
  // Engines settle a result at each pause and capitalise it; mid-sentence, a plain word goes on
  // in lower case ("The liver is" + "Normal in size").
  if (startsSentence(textBefore)) out = out.charAt(0).toUpperCase() + out.slice(1);
  else if (/^[A-Z][a-z]*\b(?![-.'’]\w)/.test(out) && !/^I\b/.test(out))
    out = out.charAt(0).toLowerCase() + out.slice(1);
  const needsSpace = textBefore !== '' && !/\s$/.test(textBefore) && !/^[.,:;!?)\]]/.test(out);
  return needsSpace ? ` ${out}` : out;
}

/** Inserts dictated text at the caret (replacing a selected field) and remembers it. */
export function insertDictatedText(
  editor: Editor,
  text: string,
  context: Pick<TDictationContext, 'last'>,
): void {
  const { selection } = editor.state;
  const { $from } = selection;
  if (!$from.parent.isTextblock) return;
  const before = blockText($from.parent).slice(0, $from.parentOffset);
  const spaced = spacedText(before, text);
  if (spaced === '') return;
  editor.view.dispatch(editor.state.tr.insertText(spaced, selection.from, selection.to).scrollIntoView());
  context.last.insertion = { text: spaced, from: selection.from, before: before.slice(-24) };
}

/**
 * Removes the last dictated insertion if its text is still there after the same words that
 * preceded it (the occurrence nearest to where it was put); false when it was changed.
 */
export function deleteLastInsertion(editor: Editor, insertion: TDictatedInsertion): boolean {
  const candidates: number[] = [];
  for (const { node, start } of textblocks(editor.state.doc)) {
    const text = blockText(node);
    const needle = insertion.before + insertion.text;
    for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + 1)) {
      candidates.push(start + index + insertion.before.length);
    }
  }
  if (candidates.length === 0) return false;
  const from = candidates.reduce((best, pos) =>
    Math.abs(pos - insertion.from) < Math.abs(best - insertion.from) ? pos : best,
  );
  editor.view.dispatch(editor.state.tr.delete(from, from + insertion.text.length).scrollIntoView());
  return true;
}

/** Normalised for comparing names: lower case, words only. */
export function nameKey(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The entry whose name is the spoken one, else the one it starts, else the only one containing it. */
export function matchByName<T extends { name: string }>(items: readonly T[], spoken: string): T | null {
  const key = nameKey(spoken);
  if (key === '') return null;
  const exact = items.find((item) => nameKey(item.name) === key);
  if (exact) return exact;
  const starting = items.filter((item) => nameKey(item.name).startsWith(key));
  if (starting.length === 1) return starting[0] ?? null;
  const containing = items.filter((item) => nameKey(item.name).includes(key));
  return containing.length === 1 ? (containing[0] ?? null) : null;
}

async function applyCommand(
  editor: Editor,
  segment: Extract<TDictationSegment, { kind: 'command' }>,
  context: TDictationContext,
): Promise<void> {
  const argument = segment.argument?.trim() ?? '';
  switch (segment.command) {
    case 'new-line':
      editor.commands.setHardBreak();
      return;
    case 'new-paragraph':
      editor.commands.first(({ commands }) => [
        () => commands.splitListItem('listItem'),
        () => commands.splitBlock(),
      ]);
      return;
    case 'delete-that': {
      const last = context.last.insertion;
      context.last.insertion = null;
      if (!last || !deleteLastInsertion(editor, last)) {
        context.notice('Nothing to delete: the last dictated words were changed or already removed.');
      }
      return;
    }
    case 'undo':
      context.last.insertion = null;
      editor.commands.undo();
      return;
    case 'next-field':
      if (!goToNextField(editor)) context.notice('This report has no field to go to.');
      return;
    case 'go-to-impression':
      if (!goToImpression(editor)) context.notice('This report has no Impression heading.');
      return;
    case 'insert-template': {
      const template = await context.findTemplate(argument).catch(() => null);
      if (!template) {
        context.notice(`No template named “${argument}”.`);
        return;
      }
      if (editor.isDestroyed || !editor.isEditable) return;
      editor.chain().insertContent(template.content).scrollIntoView().run();
      return;
    }
    case 'insert-macro': {
      const key = argument.toLowerCase().replace(/\s+/g, '');
      const macro = context.macros().find((entry) => entry.short_key.toLowerCase() === key);
      if (!macro) {
        context.notice(`No macro with the short key “${argument}”.`);
        return;
      }
      editor.chain().insertContent(insertableContent(editor, macro.value)).scrollIntoView().run();
      return;
    }
    case 'stop-dictation':
      context.stop();
      return;
  }
}

/** Applies a final result's segments in order (a template is looked up before what follows it). */
export async function applySegments(
  editor: Editor,
  segments: readonly TDictationSegment[],
  context: TDictationContext,
): Promise<void> {
  for (const segment of segments) {
    if (editor.isDestroyed || !editor.isEditable) return;
    if (segment.kind === 'text') insertDictatedText(editor, segment.text, context);
    else await applyCommand(editor, segment, context);
  }
}
