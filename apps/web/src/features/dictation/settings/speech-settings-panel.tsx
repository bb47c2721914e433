import {
  SECRET_GIVEN_AGAIN,
  secretMayFollow,
  type TSpeechProvider,
  type TSpeechSettings,
  type TSpeechSettingsUpdate,
} from '@ris/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { errorMessage } from '../../../api/api-error.ts';
import { useFormDraft, type TFieldErrors } from '../../../components/hooks/use-form-draft.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { notify } from '../../../stores/app-store.ts';
import {
  LOAD_SPEECH_SETTINGS_FAILED,
  SAVE_SPEECH_SETTINGS_FAILED,
  speechSettingsApi,
  speechSettingsKeys,
  useSpeechSettingsQuery,
} from './speech-settings-api.ts';

/** The fields the server may name in a refusal, as it names them. */
type TField =
  | 'provider'
  | 'augnito.server_url'
  | 'augnito.account_code'
  | 'augnito.lm_id'
  | 'augnito.access_key'
  | 'recording_retention_days';
const FIELDS: readonly TField[] = [
  'provider',
  'augnito.server_url',
  'augnito.account_code',
  'augnito.lm_id',
  'augnito.access_key',
  'recording_retention_days',
];

type TDraft = {
  provider: TSpeechProvider;
  serverUrl: string;
  accountCode: string;
  lmId: string;
  /** Write-only: empty keeps the stored key. */
  accessKey: string;
  browserSpeechAllowed: boolean;
  retentionDays: string;
};

const draftOf = (settings: TSpeechSettings): TDraft => ({
  provider: settings.provider,
  serverUrl: settings.augnito.server_url,
  accountCode: settings.augnito.account_code,
  lmId: settings.augnito.lm_id,
  accessKey: '',
  browserSpeechAllowed: settings.browser_speech_allowed,
  retentionDays: String(settings.recording_retention_days),
});

function bodyOf(draft: TDraft): TSpeechSettingsUpdate {
  return {
    provider: draft.provider,
    augnito: {
      server_url: draft.serverUrl.trim(),
      account_code: draft.accountCode.trim(),
      lm_id: draft.lmId.trim(),
      ...(draft.accessKey.trim() === '' ? {} : { access_key: draft.accessKey.trim() }),
    },
    browser_speech_allowed: draft.browserSpeechAllowed,
    recording_retention_days: Number(draft.retentionDays),
  };
}

function checkDraft(draft: TDraft, settings: TSpeechSettings): TFieldErrors<TField> {
  const errors: TFieldErrors<TField> = {};
  if (!/^\s*\d+\s*$/.test(draft.retentionDays))
    errors.recording_retention_days = 'Enter a whole number of days';
  const keepsKey = settings.augnito.has_access_key && draft.accessKey.trim() === '';
  if (keepsKey && !secretMayFollow([settings.augnito.server_url], [draft.serverUrl.trim()]))
    errors['augnito.access_key'] = `The access key ${SECRET_GIVEN_AGAIN}`;
  return errors;
}

type TChoice = { id: TSpeechProvider; label: string; description: string };

const CHOICES: readonly TChoice[] = [
  {
    id: 'pocketsphinx',
    label: 'Offline (PocketSphinx)',
    description:
      "Speech is recognised on this server; no audio leaves it. Learns the organisation's words from its templates, macros and reports.",
  },
  {
    id: 'augnito',
    label: 'Augnito (cloud)',
    description:
      "The server streams the audio to Augnito with the organisation's account; no key reaches a browser.",
  },
  {
    id: 'browser',
    label: "The browser's own speech recognition",
    description: 'Audio goes from the browser to its vendor (Google for Chrome, Apple for Safari).',
  },
  { id: 'off', label: 'Off', description: 'No dictation in the reporting screen.' },
];

function LanguageModelStatus({ model }: { model: TSpeechSettings['language_model'] }) {
  return (
    <p className="text-xs text-fg-subtle" aria-label="Language model">
      {model
        ? `Language model built ${new Date(model.built_at).toLocaleString()}: ${model.words.toLocaleString()} words from ${model.sentences.toLocaleString()} sentences.`
        : 'No language model built yet: the generic English model is used until the first build.'}
    </p>
  );
}

function SettingsForm({ settings, canEdit }: { settings: TSpeechSettings; canEdit: boolean }) {
  const queryClient = useQueryClient();
  const { draft, setDraft, errors, set, refuse, refusedByServer } = useFormDraft<TDraft, TField>(
    () => draftOf(settings),
    FIELDS,
  );
  const save = useMutation({
    mutationFn: () => speechSettingsApi.save(bodyOf(draft)),
    onSuccess: (saved) => {
      queryClient.setQueryData(speechSettingsKeys.all, saved);
      setDraft(draftOf(saved));
      notify('success', 'Dictation settings saved');
    },
    onError: (error) => refusedByServer(error, SAVE_SPEECH_SETTINGS_FAILED),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!refuse(checkDraft(draft, settings))) return;
    save.mutate();
  };
  const disabled = !canEdit || save.isPending;

  return (
    <form className="flex flex-col gap-4" onSubmit={submit} noValidate aria-label="Dictation settings">
      <fieldset className="flex flex-col gap-2" disabled={disabled}>
        <legend className="mb-1 text-[13px] font-medium text-fg">Speech engine</legend>
        {CHOICES.map((choice) => {
          const unavailable = choice.id === 'pocketsphinx' && !settings.pocketsphinx_available;
          return (
            <label
              key={choice.id}
              className="flex items-start gap-2 rounded-md border border-line bg-surface-raised px-3 py-2 text-[13px]"
            >
              <input
                type="radio"
                name="speech-provider"
                value={choice.id}
                checked={draft.provider === choice.id}
                disabled={unavailable && draft.provider !== choice.id}
                onChange={() => set('provider')(choice.id)}
                className="mt-0.5"
              />
              <span className="flex flex-col gap-0.5">
                <span className="font-medium text-fg">{choice.label}</span>
                <span className="text-xs text-fg-muted">
                  {unavailable ? 'Not installed on this server.' : choice.description}
                </span>
                {choice.id === 'pocketsphinx' && settings.pocketsphinx_available ? (
                  <LanguageModelStatus model={settings.language_model} />
                ) : null}
                {choice.id === 'browser' && draft.provider === 'browser' ? (
                  <span role="note" className="text-xs font-medium text-danger">
                    Patient audio leaves your network and goes to the browser’s vendor.
                  </span>
                ) : null}
              </span>
            </label>
          );
        })}
        {errors.provider ? <p className="text-xs font-medium text-danger">{errors.provider}</p> : null}
      </fieldset>
      {draft.provider === 'augnito' ? (
        <div className="grid gap-x-4 gap-y-3 sm:grid-cols-2">
          <TextField
            label="Augnito server"
            value={draft.serverUrl}
            error={errors['augnito.server_url']}
            disabled={disabled}
            autoComplete="off"
            onChange={(event) => set('serverUrl')(event.target.value)}
          />
          <TextField
            label="Account code"
            value={draft.accountCode}
            error={errors['augnito.account_code']}
            disabled={disabled}
            autoComplete="off"
            onChange={(event) => set('accountCode')(event.target.value)}
          />
          <TextField
            label="Language model id"
            value={draft.lmId}
            error={errors['augnito.lm_id']}
            disabled={disabled}
            autoComplete="off"
            onChange={(event) => set('lmId')(event.target.value)}
          />
          <TextField
            label="Access key"
            type="password"
            value={draft.accessKey}
            error={errors['augnito.access_key']}
            hint={
              settings.augnito.has_access_key
                ? 'A key is stored. Leave empty to keep it; type a new one to replace it.'
                : 'No key stored yet.'
            }
            placeholder={settings.augnito.has_access_key ? 'stored' : ''}
            disabled={disabled}
            autoComplete="new-password"
            onChange={(event) => set('accessKey')(event.target.value)}
          />
        </div>
      ) : null}
      {draft.provider !== 'browser' ? (
        <Switch
          checked={draft.browserSpeechAllowed}
          onCheckedChange={(checked) => set('browserSpeechAllowed')(checked)}
          disabled={disabled}
          className="flex items-center justify-between gap-3 text-[13px] text-fg"
        >
          <span>
            Let users choose the browser’s own speech recognition
            {draft.browserSpeechAllowed ? (
              <span role="note" className="block text-xs font-medium text-danger">
                Their audio then goes to the browser’s vendor.
              </span>
            ) : null}
          </span>
        </Switch>
      ) : null}
      <TextField
        label="Keep recorded dictations (days)"
        value={draft.retentionDays}
        error={errors.recording_retention_days}
        disabled={disabled}
        inputMode="numeric"
        autoComplete="off"
        className="max-w-xs"
        onChange={(event) => set('retentionDays')(event.target.value)}
      />
      {canEdit ? (
        <div>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? <Spinner /> : null}
            Save dictation settings
          </Button>
        </div>
      ) : (
        <p className="text-[13px] text-fg-muted">Only the organisation’s administrators change these.</p>
      )}
    </form>
  );
}

/**
 * The organisation's dictation settings (issue 17) on /organisation: the speech engine (offline
 * PocketSphinx, Augnito with a write-only key, the browser's own engine, or off), the offline
 * language model's status and how long recordings are kept. Administrators edit; facility
 * administrators read.
 */
export function SpeechSettingsPanel({ canEdit }: { canEdit: boolean }) {
  const query = useSpeechSettingsQuery();
  if (query.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-[13px] text-fg-muted">
        <Spinner /> Loading the dictation settings…
      </p>
    );
  }
  if (query.isError) {
    return (
      <p className="text-[13px] text-danger">{errorMessage(query.error, LOAD_SPEECH_SETTINGS_FAILED)}</p>
    );
  }
  return <SettingsForm settings={query.data} canEdit={canEdit} />;
}
