import {
  ZDeletedStudy,
  ZDicomSeriesList,
  ZDicomZipUrl,
  type TDeletedStudy,
  type TDicomSeries,
  type TDicomZipUrl,
} from '@ris/domain';
import { apiClient } from '../../api/client.ts';
import { API_BASE_PATH } from '../../api/http.ts';

export const dicomKeys = {
  series: (studyUid: string) => ['dicom', 'series', studyUid] as const,
};

/** The study images calls (features/dicom on the server). */
export const dicomApi = {
  /** GET /dicom/get-dicom-zip-url: a signed URL the browser downloads the study's zip from. */
  zipUrl: (studyUid: string): Promise<TDicomZipUrl> =>
    apiClient.get('/dicom/get-dicom-zip-url', {
      query: { study_uid: studyUid },
      parse: (data) => ZDicomZipUrl.parse(data),
    }),
  /** DELETE /dicom/delete-study: deletes the study in the archive and marks its items DELETED. */
  deleteStudy: (studyUid: string, byUserId: string): Promise<TDeletedStudy> =>
    apiClient.delete('/dicom/delete-study', {
      query: { study_uid: studyUid, by_user_id: byUserId },
      parse: (data) => ZDeletedStudy.parse(data),
    }),
  /** GET /dicom/series: the study's series as the archive lists them. */
  series: (studyUid: string, signal?: AbortSignal): Promise<TDicomSeries[]> =>
    apiClient.get('/dicom/series', {
      query: { study_uid: studyUid },
      signal,
      parse: (data) => ZDicomSeriesList.parse(data),
    }),
};

/** The API path of a series thumbnail (fetched with the bearer token: useStoredImageUrl). */
export function seriesThumbnailPath(studyUid: string, seriesUid: string): string {
  const query = new URLSearchParams({ study_uid: studyUid, series_uid: seriesUid });
  return `${API_BASE_PATH}/dicom/series-thumbnail?${query.toString()}`;
}
