import { ZSpeechSettings, type TSpeechSettings, type TSpeechSettingsUpdate } from '@ris/domain';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../api/client.ts';

export const speechSettingsKeys = {
  all: ['organisation', 'speech-settings'] as const,
};

export const LOAD_SPEECH_SETTINGS_FAILED = 'Failed to load the dictation settings';
export const SAVE_SPEECH_SETTINGS_FAILED = 'Failed to save the dictation settings';

export const speechSettingsApi = {
  /** GET /organisation/speech-settings (administrators and facility administrators). */
  get: (signal?: AbortSignal): Promise<TSpeechSettings> =>
    apiClient.get('/organisation/speech-settings', { signal, parse: (data) => ZSpeechSettings.parse(data) }),
  /** PUT /organisation/speech-settings (administrators); the access key is write-only. */
  save: (body: TSpeechSettingsUpdate): Promise<TSpeechSettings> =>
    apiClient.put('/organisation/speech-settings', body, { parse: (data) => ZSpeechSettings.parse(data) }),
};

export function useSpeechSettingsQuery() {
  return useQuery({
    queryKey: speechSettingsKeys.all,
    queryFn: ({ signal }) => speechSettingsApi.get(signal),
  });
}
