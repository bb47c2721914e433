import { MAX_SUPPORT_FILE_BYTES, MAX_SUPPORT_FILES } from '@ris/domain';
import { describe, expect, it } from 'vitest';
import { addAttachments } from './support-attachments.ts';

const file = (name: string, type: string, size = 1024) => new File([new Uint8Array(size)], name, { type });

describe('support attachments', () => {
  it('keeps PNG, JPEG, WebP and PDF files and refuses other types, empty and oversize files by name', () => {
    const result = addAttachments(
      [],
      [
        file('screen.png', 'image/png'),
        file('scan.pdf', 'application/pdf'),
        file('notes.txt', 'text/plain'),
        file('empty.jpg', 'image/jpeg', 0),
        file('huge.jpg', 'image/jpeg', MAX_SUPPORT_FILE_BYTES + 1),
      ],
    );
    expect(result.files.map((f) => f.name)).toEqual(['screen.png', 'scan.pdf']);
    expect(result.errors).toEqual([
      'notes.txt: attach a PNG, JPEG, WebP or PDF file',
      'empty.jpg: the file is empty',
      'huge.jpg: each file must be at most 5 MB',
    ]);
  });

  it(`adds a file once and at most ${MAX_SUPPORT_FILES} files`, () => {
    const first = file('a.png', 'image/png');
    const picked = Array.from({ length: MAX_SUPPORT_FILES + 1 }, (_, i) =>
      file(`s${i}.webp`, 'image/webp', 10 + i),
    );
    const result = addAttachments([first], [first, ...picked]);
    expect(result.files).toHaveLength(MAX_SUPPORT_FILES);
    expect(result.errors).toEqual([
      `s${MAX_SUPPORT_FILES - 1}.webp: at most ${MAX_SUPPORT_FILES} files may be attached`,
      `s${MAX_SUPPORT_FILES}.webp: at most ${MAX_SUPPORT_FILES} files may be attached`,
    ]);
  });
});
