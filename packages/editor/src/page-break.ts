import { mergeAttributes, Node } from '@tiptap/core';
import { NodeSelection, TextSelection } from '@tiptap/pm/state';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    pageBreak: {
      /** Inserts a page break: the PDF and DOCX start a new page here. */
      setPageBreak: () => ReturnType;
    };
  }
}

/** A page break block, stored as `<div data-type="page-break"></div>`. */
export const PageBreak = Node.create({
  name: 'pageBreak',
  group: 'block',
  atom: true,
  selectable: true,
  parseHTML() {
    return [{ tag: 'div[data-type="page-break"]' }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['div', mergeAttributes(HTMLAttributes, { 'data-type': 'page-break', class: 'page-break' })];
  },
  addCommands() {
    return {
      // Inserting an atom at the end of a block leaves it selected, so the next key typed would
      // replace it: the caret moves into the following text block (a new paragraph if there is none).
      setPageBreak:
        () =>
        ({ chain }) =>
          chain()
            .insertContent({ type: this.name })
            .command(({ tr, dispatch }) => {
              const { selection } = tr;
              if (!(selection instanceof NodeSelection) || selection.node.type.name !== this.name)
                return true;
              if (!dispatch) return true;
              const after = selection.to;
              if (!tr.doc.resolve(after).nodeAfter?.isTextblock) {
                const paragraph = tr.doc.type.schema.nodes.paragraph;
                if (!paragraph) return true;
                tr.insert(after, paragraph.create());
              }
              tr.setSelection(TextSelection.create(tr.doc, after + 1)).scrollIntoView();
              return true;
            })
            .run(),
    };
  },
});
