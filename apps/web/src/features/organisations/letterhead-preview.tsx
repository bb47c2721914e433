import type { TReportStyle } from '@ris/domain';
import type { CSSProperties, ReactNode } from 'react';
import { cn } from '../../components/ui/cn.ts';

/** A4 in millimetres. */
const PAGE_WIDTH_MM = 210;
const PAGE_HEIGHT_MM = 297;
const MM_PER_PT = 25.4 / 72;

/** A length on the page (mm) as a share of the page's width, in container units: the page scales. */
const mm = (value: number): string => `${(value / PAGE_WIDTH_MM) * 100}cqw`;
const pt = (value: number): string => mm(value * MM_PER_PT);

export interface LetterheadPreviewProps {
  style: TReportStyle;
  /** Object URLs of the header and footer images (picked or stored), null when there is none. */
  headerUrl: string | null;
  footerUrl: string | null;
  /** Whether the facility prints its letterhead; without it the bands stay blank for pre-printed paper. */
  letterheadEnabled: boolean;
  facilityName: string;
}

function Band({
  url,
  alt,
  heightMm,
  position,
  dimmed,
}: {
  url: string | null;
  alt: string;
  heightMm: number;
  position: 'top' | 'bottom';
  dimmed: boolean;
}) {
  if (heightMm <= 0) return null;
  return (
    <div
      className={cn(
        'absolute inset-x-0 flex items-center justify-center border-dashed border-sky-400/70',
        position === 'top' ? 'top-0 border-b' : 'bottom-0 border-t',
      )}
      style={{ height: mm(heightMm) }}
    >
      {url ? (
        <img
          src={url}
          alt={alt}
          className={cn(
            'size-full object-contain',
            // As documents place them: the header at the top of the page, the footer at its foot.
            position === 'top' ? 'object-top' : 'object-bottom',
            dimmed && 'opacity-40',
          )}
        />
      ) : (
        <span className="text-[1.9cqw] text-sky-600/80">
          {position === 'top' ? 'Header' : 'Footer'} space · {heightMm} mm
        </span>
      )}
    </div>
  );
}

function Line({ width }: { width: string }) {
  return <span className="block h-[0.55em] rounded-sm bg-neutral-300" style={{ width }} />;
}

function Text({ children, size, style }: { children: ReactNode; size: number; style?: CSSProperties }) {
  return <p style={{ fontSize: pt(size), margin: 0, ...style }}>{children}</p>;
}

/**
 * A scaled A4 page as documents are laid out with this style: the letterhead header and footer images
 * in their bands (full width, fitted), the body inside the margins below and above them, the patient
 * block, headings and text at their sizes, and the signature where it is placed. Every length is a
 * share of the page width, so the page scales with its box and follows the style as it is typed.
 */
export function LetterheadPreview({
  style,
  headerUrl,
  footerUrl,
  letterheadEnabled,
  facilityName,
}: LetterheadPreviewProps) {
  const lineHeight = style.line_height;
  const body: CSSProperties = {
    top: mm(style.header_height_mm + style.margins_mm.top),
    bottom: mm(style.footer_height_mm + style.margins_mm.bottom),
    left: mm(style.margins_mm.left),
    right: mm(style.margins_mm.right),
    lineHeight,
  };
  const [h1, h2] = style.heading_sizes_pt;
  const signatureAlign = { left: 'items-start', center: 'items-center', right: 'items-end' }[
    style.signature_placement
  ];
  return (
    <figure aria-label="Letterhead preview" className="flex flex-col gap-2">
      <div
        data-testid="letterhead-page"
        className="relative w-full overflow-hidden rounded-sm bg-white font-sans text-neutral-900 shadow-lg ring-1 ring-black/10 [container-type:inline-size]"
        style={{ aspectRatio: `${PAGE_WIDTH_MM} / ${PAGE_HEIGHT_MM}` }}
      >
        <Band
          url={headerUrl}
          alt="Letterhead header"
          heightMm={style.header_height_mm}
          position="top"
          dimmed={!letterheadEnabled}
        />
        <div
          className="absolute flex flex-col gap-[1.2cqw] outline-1 outline-sky-400/40 outline-dashed"
          style={body}
        >
          {style.show_patient_block ? (
            <div
              aria-hidden="true"
              className="grid grid-cols-2 gap-x-[3cqw] gap-y-[0.9cqw] border border-neutral-300 p-[1.4cqw]"
              style={{ fontSize: pt(style.font_size_pt * 0.9) }}
            >
              {[
                'Patient',
                'Patient ID',
                'Age / Sex',
                'Modality',
                'Study',
                'Study date',
                'Referred by',
                'Facility',
              ].map((term) => (
                <span key={term} className="flex items-center gap-[1cqw]">
                  <span className="shrink-0 font-semibold">{term}</span>
                  <Line width="60%" />
                </span>
              ))}
            </div>
          ) : null}
          <div aria-hidden="true" style={{ fontSize: pt(style.font_size_pt) }}>
            <Text
              size={style.font_size_pt * 1.15}
              style={{ fontWeight: 700, lineHeight: 1.2, textAlign: 'center', marginBottom: '0.6em' }}
            >
              CT BRAIN — REPORT
            </Text>
            <Text size={h1} style={{ fontWeight: 700, lineHeight: 1.2 }}>
              CT Brain
            </Text>
            <Text size={h2} style={{ fontWeight: 700, lineHeight: 1.2, marginTop: '0.6em' }}>
              Findings
            </Text>
            <Text size={style.font_size_pt}>
              No acute intracranial haemorrhage, mass effect or midline shift. Grey–white matter
              differentiation is preserved. The ventricles and sulci are normal for age.
            </Text>
            <Text size={h2} style={{ fontWeight: 700, lineHeight: 1.2, marginTop: '0.6em' }}>
              Impression
            </Text>
            <Text size={style.font_size_pt} style={{ fontWeight: 700 }}>
              No acute intracranial abnormality.
            </Text>
          </div>
          <div aria-hidden="true" className={cn('mt-[2cqw] flex flex-col', signatureAlign)}>
            <Text size={style.font_size_pt} style={{ fontWeight: 600 }}>
              Dr Asha Rao
            </Text>
            <Text size={style.font_size_pt * 0.85} style={{ color: '#525252' }}>
              MBBS, MD (Radiodiagnosis)
            </Text>
            <Text size={style.font_size_pt * 0.75} style={{ color: '#737373' }}>
              Electronically signed
            </Text>
          </div>
        </div>
        <p
          aria-hidden="true"
          className="absolute flex justify-between text-neutral-500"
          style={{
            fontSize: pt(8),
            left: mm(style.margins_mm.left),
            right: mm(style.margins_mm.right),
            // Documents print this line in the bottom margin, just under the body.
            top: mm(
              PAGE_HEIGHT_MM -
                style.footer_height_mm -
                style.margins_mm.bottom +
                Math.max(0.35, style.margins_mm.bottom * 0.45 - 1.41),
            ),
          }}
        >
          <span>Patient name · Patient ID</span>
          <span>Page 1 of 1</span>
        </p>
        <Band
          url={footerUrl}
          alt="Letterhead footer"
          heightMm={style.footer_height_mm}
          position="bottom"
          dimmed={!letterheadEnabled}
        />
      </div>
      <figcaption className="text-[12px] text-fg-subtle">
        {facilityName}: first page with this style
        {letterheadEnabled ? '' : ' — letterhead off: documents leave the header and footer space blank'}.
      </figcaption>
    </figure>
  );
}
