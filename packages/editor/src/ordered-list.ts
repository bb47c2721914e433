import type { Attributes } from '@tiptap/core';
import { OrderedList } from '@tiptap/extension-list';
import { boundedInteger, knownValue } from './safe-values.ts';

const LIST_TYPES = ['1', 'a', 'A', 'i', 'I'] as const;
const listStart = (value: unknown) => boundedInteger(value, -999_999, 999_999) ?? 1;
const listType = (value: unknown) => knownValue(value, LIST_TYPES);

/** Ordered lists whose `start` is an integer and `type` one of HTML's list types, whatever was set. */
export const ReportOrderedList = OrderedList.extend({
  addAttributes() {
    const parent: Attributes = this.parent?.() ?? {};
    const parseType = parent.type?.parseHTML;
    return {
      ...parent,
      start: {
        default: 1,
        parseHTML: (element) => listStart(element.getAttribute('start')),
        renderHTML: (attributes) => ({ start: listStart(attributes.start) }),
      },
      type: {
        default: null,
        parseHTML: (element) => listType(parseType ? parseType(element) : element.getAttribute('type')),
        renderHTML: (attributes) => {
          const type = listType(attributes.type);
          return type ? { type } : {};
        },
      },
    };
  },
});
