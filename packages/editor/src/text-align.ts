import TextAlign from '@tiptap/extension-text-align';
import { knownValue } from './safe-values.ts';

/** Text alignments the editor offers (and the sanitiser keeps). */
export const TEXT_ALIGNMENTS = ['left', 'center', 'right', 'justify'] as const;

/** One of TEXT_ALIGNMENTS, or null. */
export function textAlignment(value: unknown): (typeof TEXT_ALIGNMENTS)[number] | null {
  return knownValue(value, TEXT_ALIGNMENTS);
}

/**
 * TipTap's TextAlign renders whatever the attribute holds into `style="text-align: …"`: a value set
 * through a collaborator's update (`left; position: fixed; background: url(…)`) would become a style
 * of every viewer's page. Only TEXT_ALIGNMENTS are parsed and rendered here; anything else renders
 * nothing.
 */
export const ReportTextAlign = TextAlign.extend({
  addGlobalAttributes() {
    return [
      {
        types: this.options.types,
        attributes: {
          textAlign: {
            default: null,
            parseHTML: (element) => textAlignment(element.style.textAlign),
            renderHTML: (attributes) => {
              const alignment = textAlignment(attributes.textAlign);
              return alignment ? { style: `text-align: ${alignment}` } : {};
            },
          },
        },
      },
    ];
  },
});
