// The DOCX as Word reads it: the package unzipped (jszip) and its parts checked.
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { renderReportDocx } from './index.ts';
import type { TReportDocumentInput } from './report-document.ts';
import { KEY_IMAGE_1, sampleReportInput, solidPng, GREEN } from './sample-report.ts';

type TDocxParts = {
  document: string;
  headers: string[];
  footers: string[];
  numbering: string;
  styles: string;
  media: Buffer[];
  rels: string;
};

async function docxParts(input: TReportDocumentInput): Promise<TDocxParts> {
  const docx = await renderReportDocx(input);
  expect(docx.subarray(0, 2).toString()).toBe('PK');
  const zip = await JSZip.loadAsync(docx);
  const read = async (name: string) => (await zip.file(name)?.async('string')) ?? '';
  const names = Object.keys(zip.files);
  const partsOf = (pattern: RegExp) =>
    Promise.all(
      names
        .filter((name) => pattern.test(name))
        .sort()
        .map(read),
    );
  return {
    document: await read('word/document.xml'),
    headers: await partsOf(/^word\/header\d*\.xml$/),
    footers: await partsOf(/^word\/footer\d*\.xml$/),
    numbering: await read('word/numbering.xml'),
    styles: await read('word/styles.xml'),
    media: await Promise.all(
      names
        .filter((name) => name.startsWith('word/media/') && !zip.files[name]?.dir)
        .map(async (name) => (await zip.file(name)?.async('nodebuffer')) ?? Buffer.alloc(0)),
    ),
    rels: (await partsOf(/^word\/_rels\/(header|footer)\d*\.xml\.rels$/)).join(''),
  };
}

/** The document's visible text, runs joined per paragraph. */
function paragraphs(xml: string): string[] {
  return [...xml.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)].map((match) =>
    [...match[0].matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((text) => text[1]).join(''),
  );
}

describe('renderReportDocx', () => {
  it('holds the patient block, title, body, signature and addendum as paragraphs and tables', async () => {
    const parts = await docxParts(
      sampleReportInput({
        bodyHtml: `<h2>Findings</h2><p>Liver is <strong>normal</strong>.</p><ul><li><p>No ascites.</p></li></ul><ol start="4" type="i"><li><p>fourth</p></li></ol><table><tbody><tr><th><p>Organ</p></th><th><p>Size</p></th></tr><tr><td><p>Spleen</p></td><td><p>11 cm</p></td></tr></tbody></table><div data-type="page-break"></div><p>Second page</p><img src="${KEY_IMAGE_1}" width="200">`,
      }),
    );
    const text = paragraphs(parts.document);
    for (const expected of [
      'Patient name',
      'Asha Verma',
      'PID-204518',
      '42 Y / F',
      'ACC-99812',
      'Dr Kiran Mehta',
      'City General Hospital',
    ]) {
      expect(text).toContain(expected);
    }
    for (const expected of [
      'CT CHEST — REPORT',
      'Findings',
      'Liver is normal.',
      'No ascites.',
      'fourth',
      'Organ',
      'Spleen',
      '11 cm',
      'Second page',
    ]) {
      expect(text).toContain(expected);
    }
    for (const expected of [
      'Dr Anil Rao',
      'MD Radiology',
      'Reg. No. KMC 45122',
      'Addendum 1 — Dr Anil Rao, 22 Nov 2026, 09:10',
    ]) {
      expect(text).toContain(expected);
    }
    expect(parts.document).toContain('<w:pStyle w:val="Heading2"/>');
    expect(parts.document.match(/<w:tbl>/g)?.length).toBeGreaterThanOrEqual(3); // patient block, body table, signatures
    expect(parts.document).toContain('<w:tblHeader/>');
    expect(parts.document).toMatch(/<w:br w:type="page"\/>/);
    // Lists: bullet and ordered definitions, the ordered one starting at 4 in lower roman.
    expect(parts.document).toMatch(/<w:numPr><w:ilvl w:val="0"\/><w:numId w:val="\d+"\/><\/w:numPr>/);
    expect(parts.numbering).toContain('<w:numFmt w:val="bullet"/>');
    expect(parts.numbering).toMatch(/<w:start w:val="4"\/><w:numFmt w:val="lowerRoman"\/>/);
    // Line spacing is a multiple of the font's line (lineRule auto), never exact or at-least.
    expect(parts.styles).toMatch(/<w:spacing [^>]*w:lineRule="auto"/);
    expect(parts.styles + parts.document).not.toMatch(/w:lineRule="(exact|atLeast)"/);
    // The body's key image and the signature image are in the package.
    expect(parts.document.match(/<pic:pic /g)?.length).toBe(2);
  });

  it('puts the letterhead images in the header and footer with "Page X of Y" fields', async () => {
    const input = sampleReportInput({ letterhead: true });
    const parts = await docxParts(input);
    // The package holds every image byte for byte: letterhead, key images, signature.
    const expected = [
      input.letterhead.mode === 'letterhead' ? input.letterhead.header?.data : undefined,
      input.letterhead.mode === 'letterhead' ? input.letterhead.footer?.data : undefined,
      ...[...input.images.values()].map((image) => image.data),
      input.signatures[0]?.image?.data,
    ];
    expect(parts.media).toHaveLength(5);
    for (const data of expected)
      expect(parts.media.some((media) => data !== undefined && media.equals(data))).toBe(true);
    expect(parts.headers.join('')).toContain('<wp:anchor');
    expect(parts.footers.join('')).toContain('<wp:anchor');
    expect(parts.rels.match(/relationships\/image/g)?.length).toBe(2);
    const footer = parts.footers.join('');
    expect(footer).toMatch(/<w:instrText[^>]*>PAGE<\/w:instrText>/);
    expect(footer).toMatch(/<w:instrText[^>]*>NUMPAGES<\/w:instrText>/);
    expect(paragraphs(footer).join('')).toContain('Page  of ');
    expect(footer).toContain('Asha Verma · PID-204518');
  });

  it('leaves the letterhead space empty on blank paper, with the same page margins', async () => {
    const blank = await docxParts(sampleReportInput({ letterhead: false }));
    const letterhead = await docxParts(sampleReportInput({ letterhead: true }));
    expect(blank.headers.join('') + blank.footers.join('')).not.toContain('<w:drawing>');
    expect(blank.rels).not.toContain('relationships/image');
    const margins = (xml: string) => /<w:pgMar [^>]*\/>/.exec(xml)?.[0];
    expect(margins(blank.document)).toBe(margins(letterhead.document));
    // 32 mm header + 12 mm margin = 44 mm ≈ 2494 twips; 18 + 12 mm = 30 mm ≈ 1701 twips.
    expect(margins(blank.document)).toMatch(/w:top="2494"/);
    expect(margins(blank.document)).toMatch(/w:bottom="1701"/);
    expect(blank.document).toMatch(/<w:pgSz w:w="11906" w:h="16838"/);
  });

  it('marks a non-final report in the header of every page', async () => {
    expect((await docxParts(sampleReportInput({ final: false }))).headers.join('')).toContain(
      'PRELIMINARY — NOT FINAL',
    );
    expect((await docxParts(sampleReportInput({ final: true }))).headers.join('')).not.toContain(
      'PRELIMINARY',
    );
  });

  it('names the Noto font of each script on its runs', async () => {
    const input = sampleReportInput({ bodyHtml: '<p>Name: सीता देवी and தமிழ்</p>' });
    input.patient.patientName = 'सीता देवी';
    const { document } = await docxParts(input);
    const fontOf = (text: string) =>
      new RegExp(`<w:rFonts ([^>]*)/></w:rPr><w:t xml:space="preserve">${text}`)
        .exec(document)?.[1]
        ?.match(/w:\w+="[^"]*"/g)
        ?.sort()
        .join(' ');
    const slots = (family: string) =>
      ['ascii', 'cs', 'eastAsia', 'hAnsi'].map((slot) => `w:${slot}="${family}"`).join(' ');
    expect(fontOf('सीता देवी')).toBe(slots('Noto Sans Devanagari'));
    expect(fontOf('தமிழ்')).toBe(slots('Noto Sans Tamil'));
    expect(fontOf('Name: ')).toBe(slots('Noto Sans'));
  });

  it('survives empty, odd and oversized content without dropping text', async () => {
    const empty = sampleReportInput({ bodyHtml: '' });
    empty.signatures = [];
    empty.addenda = [];
    expect(paragraphs((await docxParts(empty)).document)).toContain('Asha Verma');

    const odd = sampleReportInput({
      bodyHtml: `<x-tag>kept</x-tag><img src="/missing"><img src="${KEY_IMAGE_1}" width="99999"><table><tr><td colspan="999" rowspan="7">span</td><td>next</td></tr><tr></tr></table><blockquote><p>quoted</p></blockquote><hr><ol><li><ol><li><ol><li>deep</li></ol></li></ol></li></ol>`,
    });
    odd.images = new Map([[KEY_IMAGE_1, solidPng(4000, 300, GREEN)]]);
    const text = paragraphs((await docxParts(odd)).document);
    for (const expected of ['kept', 'span', 'next', 'quoted', 'deep']) expect(text).toContain(expected);
  });
});
