import { reportFileName } from '@ris/domain';
import { describe, expect, it } from 'vitest';
import { asciiFileName, attachmentDisposition } from './content-disposition.ts';

describe('attachmentDisposition', () => {
  it('gives an ASCII filename and the UTF-8 name in filename*', () => {
    expect(attachmentDisposition(reportFileName('José Núñez', 'pdf'))).toBe(
      `attachment; filename="Jose Nunez_report.pdf"; filename*=UTF-8''Jos%C3%A9%20N%C3%BA%C3%B1ez_report.pdf`,
    );
    expect(attachmentDisposition(reportFileName('सीता देवी', 'docx'))).toBe(
      `attachment; filename="patient_report.docx"; filename*=UTF-8''${encodeURIComponent('सीता देवी_report.docx')}`,
    );
  });

  it("never lets quotes, slashes or RFC 8187's bare characters through", () => {
    expect(asciiFileName(`O'Brien (Jr)*; "x"\\y.pdf`)).toBe(`O'Brien (Jr)__ _x__y.pdf`);
    const header = attachmentDisposition(`O'Brien (Jr)*.pdf`);
    expect(header.split("filename*=UTF-8''")[1]).toBe('O%27Brien%20%28Jr%29%2A.pdf');
    expect(attachmentDisposition('a\r\nb.pdf')).not.toMatch(/[\r\n]/);
  });
});
