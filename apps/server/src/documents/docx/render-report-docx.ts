// The report as a DOCX (the `docx` package): A4 section whose margins keep the letterhead space,
// header and footer images floating in that space on every page (or the space left empty), the
// non-final marking in the header, "Page X of Y" from PAGE / NUMPAGES fields in the footer.
// Fonts are named, not embedded: embedding the Indic fonts would add ~0.5 MB per script to every
// file and most of the render time; Word substitutes a font a machine lacks.
import {
  AlignmentType,
  Document,
  Footer,
  Header,
  HorizontalPositionAlign,
  HorizontalPositionRelativeFrom,
  ImageRun,
  LineRuleType,
  PageNumber,
  Paragraph,
  Tab,
  TabStopType,
  TextRun,
  TextWrappingType,
  VerticalPositionRelativeFrom,
} from 'docx';
import type { TReportStyle } from '@ris/domain';
import { docxFontFamily } from '../fonts.ts';
import { containBox, imagePixelSize } from '../image-size.ts';
import {
  MM,
  NOTO_SANS_LINE_HEIGHT,
  PAGE_HEIGHT,
  PAGE_WIDTH,
  pageLayout,
  PRELIMINARY_MARK,
  type TPageLayout,
} from '../page-layout.ts';
import type { TDocumentImage, TReportDocumentInput } from '../report-document.ts';
import { parseReportHtml } from '../report-tree.ts';
import {
  docxBlocks,
  docxRuns,
  POINT_TO_PIXEL,
  TWIP,
  type TDocxContext,
  type TDocxElement,
  xmlSafeText,
} from './docx-body.ts';
import { DocxMedia, packDocx } from './pack-docx.ts';
import { docxAddenda, docxPatientBlock, docxSignatures, docxTitle } from './docx-sections.ts';

/** English Metric Units per point (floating image offsets). */
const EMU = 12_700;
const LATIN = docxFontFamily('latin');

/** Renders the report as a DOCX. */
export async function renderReportDocx(input: TReportDocumentInput): Promise<Buffer> {
  const { style } = input;
  const layout = pageLayout(style);
  const context: TDocxContext = {
    fontSize: style.font_size_pt,
    width: layout.contentWidth,
    maxImageHeight: layout.contentHeight * 0.8,
    images: input.images,
    quoteDepth: 0,
    numbering: [],
    media: new DocxMedia(),
  };

  const children: TDocxElement[] = [];
  if (style.show_patient_block) children.push(...docxPatientBlock(context, input.patient));
  if (input.title) children.push(docxTitle(context, input.title, style.heading_sizes_pt[0]));
  children.push(...docxBlocks(context, parseReportHtml(input.bodyHtml)));
  children.push(...docxSignatures(context, input.signatures, style.signature_placement));
  children.push(...docxAddenda(context, input.addenda));
  // A section must end with a paragraph.
  if (!(children.at(-1) instanceof Paragraph)) children.push(new Paragraph({}));

  const document = new Document({
    title: xmlSafeText(input.meta.title),
    creator: xmlSafeText(input.meta.author),
    lastModifiedBy: xmlSafeText(input.meta.author),
    styles: documentStyles(style),
    numbering: { config: context.numbering },
    sections: [
      {
        properties: {
          page: {
            size: { width: Math.round(PAGE_WIDTH * TWIP), height: Math.round(PAGE_HEIGHT * TWIP) },
            margin: {
              top: Math.round(layout.top * TWIP),
              right: Math.round(layout.right * TWIP),
              bottom: Math.round(layout.bottom * TWIP),
              left: Math.round(layout.left * TWIP),
              // Header text sits just under the header band, footer text just over the footer band.
              header: Math.round((layout.headerHeight + 2 * MM) * TWIP),
              footer: Math.round(
                (layout.footerHeight + Math.min(3 * MM, style.margins_mm.bottom * MM * 0.3)) * TWIP,
              ),
            },
          },
        },
        headers: { default: new Header({ children: [headerParagraph(input, layout, context.media)] }) },
        footers: { default: new Footer({ children: [footerParagraph(input, layout, context.media)] }) },
        children,
      },
    ],
  });
  return packDocx(document, context.media);
}

function documentStyles(style: TReportStyle) {
  const font = { ascii: LATIN, hAnsi: LATIN, cs: LATIN, eastAsia: LATIN };
  // Word's "auto" line spacing is in 240ths of the font's own line height.
  const line = Math.round((240 * style.line_height) / NOTO_SANS_LINE_HEIGHT);
  const heading = (level: 1 | 2 | 3) => {
    const size = style.heading_sizes_pt[level - 1] ?? style.font_size_pt;
    return {
      id: `Heading${level}`,
      name: `Heading ${level}`,
      basedOn: 'Normal',
      next: 'Normal',
      quickFormat: true,
      run: { font, size: Math.round(size * 2), bold: true, color: '1A1A1A' },
      paragraph: {
        keepNext: true,
        keepLines: true,
        spacing: {
          before: Math.round(size * 0.5 * TWIP),
          after: Math.round(size * 0.3 * TWIP),
          line,
          lineRule: LineRuleType.AUTO,
        },
      },
    };
  };
  return {
    default: {
      document: {
        run: { font, size: Math.round(style.font_size_pt * 2), color: '1A1A1A' },
        paragraph: {
          spacing: { line, lineRule: LineRuleType.AUTO, after: Math.round(style.font_size_pt * 0.5 * TWIP) },
        },
      },
    },
    paragraphStyles: [heading(1), heading(2), heading(3)],
  };
}

/** A letterhead image floating at the top or bottom of the page, fitted into its band. */
function letterheadImage(
  media: DocxMedia,
  image: TDocumentImage | null,
  bandHeight: number,
  at: 'top' | 'bottom',
): ImageRun | null {
  const size = image ? imagePixelSize(image) : null;
  if (!image || !size || bandHeight <= 0) return null;
  const box = containBox(size, PAGE_WIDTH, bandHeight);
  return new ImageRun({
    type: image.mediaType === 'image/png' ? 'png' : 'jpg',
    data: media.standIn(image.data),
    transformation: {
      width: Math.round(box.width * POINT_TO_PIXEL),
      height: Math.round(box.height * POINT_TO_PIXEL),
    },
    floating: {
      horizontalPosition: {
        relative: HorizontalPositionRelativeFrom.PAGE,
        align: HorizontalPositionAlign.CENTER,
      },
      verticalPosition: {
        relative: VerticalPositionRelativeFrom.PAGE,
        offset: Math.round((at === 'top' ? 0 : PAGE_HEIGHT - box.height) * EMU),
      },
      behindDocument: true,
      allowOverlap: true,
      wrap: { type: TextWrappingType.NONE },
    },
  });
}

function headerParagraph(input: TReportDocumentInput, layout: TPageLayout, media: DocxMedia): Paragraph {
  const children: Array<ImageRun | TextRun> = [];
  if (input.letterhead.mode === 'letterhead') {
    const image = letterheadImage(media, input.letterhead.header, layout.headerHeight, 'top');
    if (image) children.push(image);
  }
  if (!input.final) {
    children.push(
      new TextRun({ text: PRELIMINARY_MARK, bold: true, size: 18, color: 'C62828', characterSpacing: 20 }),
    );
  }
  return new Paragraph({
    children,
    alignment: AlignmentType.CENTER,
    spacing: { after: 0, line: 240, lineRule: LineRuleType.AUTO },
  });
}

function footerParagraph(input: TReportDocumentInput, layout: TPageLayout, media: DocxMedia): Paragraph {
  const children: Array<ImageRun | TextRun> = [];
  if (input.letterhead.mode === 'letterhead') {
    const image = letterheadImage(media, input.letterhead.footer, layout.footerHeight, 'bottom');
    if (image) children.push(image);
  }
  const patient = [input.patient.patientName, input.patient.patientId]
    .filter((part) => part !== '')
    .join(' · ');
  children.push(...docxRuns(patient, { size: 8, color: '616161' }));
  children.push(
    new TextRun({
      children: [new Tab(), 'Page ', PageNumber.CURRENT, ' of ', PageNumber.TOTAL_PAGES],
      size: 16,
      color: '616161',
    }),
  );
  return new Paragraph({
    children,
    tabStops: [{ type: TabStopType.RIGHT, position: Math.round(layout.contentWidth * TWIP) }],
    spacing: { after: 0, line: 240, lineRule: LineRuleType.AUTO },
  });
}
