import * as Menu from '@radix-ui/react-dropdown-menu';
import type { TReport, TWorklistItem } from '@ris/domain';
import { ChevronDown, Download, FileSignature, FileText, FileType2, Users } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { menuContentClassName, menuItemClassName } from '../worklist/row-menu.tsx';
import { ByRadiologistDialog } from './by-radiologist-dialog.tsx';
import { reportOutputApi } from './report-output-api.ts';
import { useReportDownload } from './use-report-download.ts';

export interface DownloadMenuProps {
  study: TWorklistItem;
  report: TReport;
  final: boolean;
  /** "By radiologist…": the report's abilities.choose_signers (the server's report policy). */
  canChooseSigners: boolean;
  letterheadByDefault: boolean;
}

/**
 * Download: PDF or DOCX of the stored report, with or without letterhead; signed by chosen
 * radiologists; for a final report, its signed original PDF.
 */
export function DownloadMenu({
  study,
  report,
  final,
  canChooseSigners,
  letterheadByDefault,
}: DownloadMenuProps) {
  const { busy, download } = useReportDownload(study.patient_name);
  const [byRadiologist, setByRadiologist] = useState(false);
  const body = (letterhead: boolean) => ({ worklist_id: study.id, is_letterhead_enabled: letterhead });
  const items = [
    {
      label: 'PDF with letterhead',
      icon: FileText,
      run: () => download('pdf', () => reportOutputApi.primaryPdf(body(true))),
    },
    {
      label: 'PDF without letterhead',
      icon: FileText,
      run: () => download('pdf', () => reportOutputApi.primaryPdf(body(false))),
    },
    {
      label: 'DOCX with letterhead',
      icon: FileType2,
      run: () => download('docx', () => reportOutputApi.docx(body(true))),
    },
    {
      label: 'DOCX without letterhead',
      icon: FileType2,
      run: () => download('docx', () => reportOutputApi.docx(body(false))),
    },
  ];

  return (
    <>
      <Menu.Root>
        <Menu.Trigger asChild>
          <Button variant="secondary" size="sm" disabled={busy}>
            <Download aria-hidden="true" className="size-3.5" /> Download
            <ChevronDown aria-hidden="true" className="size-3.5 text-fg-subtle" />
          </Button>
        </Menu.Trigger>
        <Menu.Portal>
          <Menu.Content align="end" sideOffset={4} className={menuContentClassName}>
            {items.map(({ label, icon: Icon, run }) => (
              <Menu.Item key={label} className={menuItemClassName} onSelect={() => void run()}>
                <Icon aria-hidden="true" className="size-4 text-fg-subtle" /> {label}
              </Menu.Item>
            ))}
            {canChooseSigners || (final && report.pdf_url) ? (
              <Menu.Separator className="my-1 h-px bg-line" />
            ) : null}
            {canChooseSigners ? (
              <Menu.Item className={menuItemClassName} onSelect={() => setByRadiologist(true)}>
                <Users aria-hidden="true" className="size-4 text-fg-subtle" /> By radiologist…
              </Menu.Item>
            ) : null}
            {final && report.pdf_url ? (
              <Menu.Item
                className={menuItemClassName}
                onSelect={() => void download('stored-pdf', () => reportOutputApi.currentStoredPdf(study.id))}
              >
                <FileSignature aria-hidden="true" className="size-4 text-fg-subtle" /> Signed original PDF
              </Menu.Item>
            ) : null}
          </Menu.Content>
        </Menu.Portal>
      </Menu.Root>
      {byRadiologist ? (
        <ByRadiologistDialog
          study={study}
          report={report}
          letterheadByDefault={letterheadByDefault}
          busy={busy}
          onDownload={download}
          onClose={() => setByRadiologist(false)}
        />
      ) : null}
    </>
  );
}
