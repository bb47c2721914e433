import { LOADING_TOAST_MESSAGES } from '@ris/domain';
import { errorMessage } from '../../api/api-error.ts';
import { notify } from '../../stores/app-store.ts';
import { dicomApi } from './dicom-api.ts';

/**
 * Asks the server for the study's signed zip URL, then lets the browser download it as a plain link
 * (its own download bar shows the progress; the page stays). The URL needs no bearer token and
 * expires within minutes, so it is fetched at the click, never kept.
 */
export async function downloadStudyImages(
  studyUid: string,
  patientName: string,
  browser: Pick<Document, 'createElement'> & { body: Pick<HTMLElement, 'append'> } = document,
): Promise<boolean> {
  const id = notify('loading', LOADING_TOAST_MESSAGES.preparingDownload);
  try {
    const link = await dicomApi.zipUrl(studyUid);
    const anchor = browser.createElement('a');
    anchor.href = link.url;
    anchor.download = '';
    anchor.rel = 'noopener';
    anchor.style.display = 'none';
    browser.body.append(anchor);
    anchor.click();
    anchor.remove();
    notify('success', `Downloading the images of ${patientName}`, { id, duration: 3000 });
    return true;
  } catch (error) {
    notify('error', errorMessage(error, 'Failed to download the study images'), { id });
    return false;
  }
}
