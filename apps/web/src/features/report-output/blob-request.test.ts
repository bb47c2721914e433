import { describe, expect, it } from 'vitest';
import { fileNameFromDisposition } from './blob-request.ts';

describe('fileNameFromDisposition', () => {
  it('prefers the UTF-8 name of filename* over the ASCII fallback', () => {
    expect(
      fileNameFromDisposition(
        `attachment; filename="_report.pdf"; filename*=UTF-8''%E0%A4%B0%E0%A4%BE%E0%A4%B9%E0%A5%81%E0%A4%B2_report.pdf`,
      ),
    ).toBe('राहुल_report.pdf');
    expect(fileNameFromDisposition(`attachment; filename="Asha Rao_report.docx"`)).toBe(
      'Asha Rao_report.docx',
    );
    expect(fileNameFromDisposition('attachment; filename=plain_report.pdf')).toBe('plain_report.pdf');
  });

  it('falls back to the plain name when filename* is broken, and answers null without a name', () => {
    expect(fileNameFromDisposition(`attachment; filename="x_report.pdf"; filename*=UTF-8''%E0%A4`)).toBe(
      'x_report.pdf',
    );
    expect(fileNameFromDisposition('attachment')).toBeNull();
    expect(fileNameFromDisposition(null)).toBeNull();
  });
});
