// Which engine an organisation's dictation goes to (issue 17): the offline PocketSphinx provider,
// created once when the app starts and closed with it, or Augnito, opened per dictation with the
// organisation's own account (its key unsealed only here, on the server). 'browser' and 'off' have
// no server engine. The engines' modules are handed in by app.ts, so this feature never imports them.
import type { TSpeechProvider } from '@ris/domain';
import type { TDbOrTx } from '../../db/client.ts';
import type { SecretBox } from '../../integrations/sealed-secrets.ts';
import { SpeechEngineError, type SpeechProvider } from '../../integrations/speech/speech-provider.ts';
import { speechSettingsOf, type TSpeechSettingsInEffect } from './speech-settings.ts';

/** What the Augnito adapter needs (integrations/speech/augnito, AugnitoConfig). */
export type TAugnitoEngineConfig = {
  serverUrl: string;
  accountCode: string;
  accessKey: string;
  lmId: string;
  sourceApp: string;
  timeoutMs?: number;
};

export type TSpeechEngineDeps = {
  /** The offline engine, or null when PocketSphinx is not installed on this server. */
  pocketsphinx: (SpeechProvider & { close(): Promise<void> }) | null;
  /** Makes an Augnito provider for one organisation's account (integrations/speech/augnito). */
  augnito: ((config: TAugnitoEngineConfig) => SpeechProvider) | null;
  box: SecretBox;
  /** How long an engine may take to answer (SPEECH_ENGINE_TIMEOUT_MS). */
  timeoutMs: number;
};

export type TOrganisationEngine = {
  settings: TSpeechSettingsInEffect;
  /** The server engine to stream to; null for 'browser' and 'off'. */
  provider: SpeechProvider | null;
};

/** How the app names itself to Augnito (its `sourceapp` parameter). */
const SOURCE_APP = 'ris';

export class SpeechEngines {
  readonly #deps: TSpeechEngineDeps;

  constructor(deps: TSpeechEngineDeps) {
    this.#deps = deps;
  }

  get pocketsphinxAvailable(): boolean {
    return this.#deps.pocketsphinx !== null;
  }

  /** The organisation's settings in effect (their defaults depend on PocketSphinx being installed). */
  settingsOf(db: TDbOrTx, organisationId: string): Promise<TSpeechSettingsInEffect> {
    return speechSettingsOf(db, organisationId, this.pocketsphinxAvailable);
  }

  /**
   * The engine for an organisation now. Throws SpeechEngineError when its engine cannot be used
   * (PocketSphinx gone since the admin chose it, Augnito's key unreadable under this server's secret).
   */
  async engineFor(db: TDbOrTx, organisationId: string): Promise<TOrganisationEngine> {
    const settings = await this.settingsOf(db, organisationId);
    return { settings, provider: this.#providerOf(settings) };
  }

  #providerOf(settings: TSpeechSettingsInEffect): SpeechProvider | null {
    const choice: TSpeechProvider = settings.provider;
    switch (choice) {
      case 'browser':
      case 'off':
        return null;
      case 'pocketsphinx': {
        if (!this.#deps.pocketsphinx)
          throw new SpeechEngineError(
            'ENGINE_UNAVAILABLE',
            'The offline speech engine is not installed on this server; ask an administrator.',
          );
        return this.#deps.pocketsphinx;
      }
      case 'augnito':
        return this.#augnito(settings.augnito);
    }
  }

  #augnito(augnito: TSpeechSettingsInEffect['augnito']): SpeechProvider {
    const { augnito: create, box, timeoutMs } = this.#deps;
    if (!create)
      throw new SpeechEngineError('ENGINE_UNAVAILABLE', 'Augnito is not available on this server.');
    let accessKey: string | null = null;
    try {
      accessKey = augnito.accessKeySealed === null ? null : box.open(augnito.accessKeySealed);
    } catch {
      accessKey = null;
    }
    if (accessKey === null)
      throw new SpeechEngineError(
        'ENGINE_REFUSED_CREDENTIALS',
        "Augnito's access key is missing or unreadable; an administrator must enter it again.",
      );
    return create({
      serverUrl: augnito.serverUrl,
      accountCode: augnito.accountCode,
      accessKey,
      lmId: augnito.lmId,
      sourceApp: SOURCE_APP,
      timeoutMs,
    });
  }

  /** Closes the offline engine's workers (app close). */
  async close(): Promise<void> {
    await this.#deps.pocketsphinx?.close();
  }
}
