// Debian's CMU PocketSphinx (libpocketsphinx3 0.8+5prealpha, pocketsphinx-en-us) called through
// koffi. Only the decoder's worker threads call into it (pocketsphinx-worker.ts): decoding is CPU
// heavy and a native call blocks the thread it runs on.
import { existsSync } from 'node:fs';
import path from 'node:path';
import koffi from 'koffi';

/** The generic US English model of pocketsphinx-en-us. */
export const EN_US_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';
export const ACOUSTIC_MODEL_DIR = path.join(EN_US_MODEL_DIR, 'en-us');
export const GENERIC_LM_PATH = path.join(EN_US_MODEL_DIR, 'en-us.lm.bin');
export const CMU_DICT_PATH = path.join(EN_US_MODEL_DIR, 'cmudict-en-us.dict');

const SPHINXBASE_SONAME = 'libsphinxbase.so.3';
const POCKETSPHINX_SONAME = 'libpocketsphinx.so.3';

/** An opaque C pointer (ps_decoder_t*, cmd_ln_t*) as koffi hands it over. */
type TPointer = { readonly __brand: 'pointer' } | null;

export type TPocketsphinxLibrary = {
  /** A decoder for the acoustic model with this language model and dictionary, or null (bad files). */
  createDecoder(options: { lmPath: string; dictPath: string; args: readonly string[] }): TDecoder | null;
};

export type TDecoder = {
  startUtterance(): void;
  /** Feeds samples (16 kHz mono); `true` while the voice activity detector hears speech. */
  process(samples: Int16Array): boolean;
  /** The best hypothesis so far ('' when none). */
  hypothesis(): string;
  endUtterance(): void;
  free(): void;
};

let loaded: TPocketsphinxLibrary | null = null;

/** Binds the C functions (once per thread); throws when the shared libraries are missing. */
export function loadPocketsphinx(): TPocketsphinxLibrary {
  if (loaded) return loaded;
  const sphinxbase = koffi.load(SPHINXBASE_SONAME);
  const pocketsphinx = koffi.load(POCKETSPHINX_SONAME);
  const errSetLogfp = sphinxbase.func('void err_set_logfp(void *fp)') as (fp: null) => void;
  const psArgs = pocketsphinx.func('void *ps_args()') as () => TPointer;
  // cmd_ln_parse_r rather than the variadic cmd_ln_init: one argv array, no variadic call.
  const cmdLnParse = sphinxbase.func(
    'void *cmd_ln_parse_r(void *inout, void *defn, int32_t argc, const char **argv, int32_t strict)',
  ) as (inout: null, defn: TPointer, argc: number, argv: string[], strict: number) => TPointer;
  const cmdLnFree = sphinxbase.func('int cmd_ln_free_r(void *config)') as (config: TPointer) => number;
  const psInit = pocketsphinx.func('void *ps_init(void *config)') as (config: TPointer) => TPointer;
  const psFree = pocketsphinx.func('int ps_free(void *ps)') as (ps: TPointer) => number;
  const psStartUtt = pocketsphinx.func('int ps_start_utt(void *ps)') as (ps: TPointer) => number;
  const psEndUtt = pocketsphinx.func('int ps_end_utt(void *ps)') as (ps: TPointer) => number;
  const psProcessRaw = pocketsphinx.func(
    'int ps_process_raw(void *ps, const int16_t *data, size_t n, int no_search, int full_utt)',
  ) as (ps: TPointer, data: Int16Array, n: number, noSearch: number, fullUtt: number) => number;
  const psGetHyp = pocketsphinx.func('const char *ps_get_hyp(void *ps, _Out_ int32_t *score)') as (
    ps: TPointer,
    score: number[],
  ) => string | null;
  const psGetInSpeech = pocketsphinx.func('uint8_t ps_get_in_speech(void *ps)') as (ps: TPointer) => number;

  // The library's own log goes nowhere (it would name file paths and settings on stderr). Not with
  // "-logfn /dev/null": ps_init then closes and reopens the process-wide log file, and two threads
  // loading decoders at once freed it twice (glibc "free(): invalid pointer", the process died).
  errSetLogfp(null);

  loaded = {
    createDecoder({ lmPath, dictPath, args }) {
      const argv = ['-hmm', ACOUSTIC_MODEL_DIR, '-lm', lmPath, '-dict', dictPath, ...args];
      const config = cmdLnParse(null, psArgs(), argv.length, argv, 1);
      if (!config) return null;
      const ps = psInit(config);
      // ps_init keeps its own reference to the configuration.
      cmdLnFree(config);
      if (!ps) return null;
      const score = [0];
      return {
        startUtterance: () => void psStartUtt(ps),
        process(samples) {
          psProcessRaw(ps, samples, samples.length, 0, 0);
          return psGetInSpeech(ps) !== 0;
        },
        hypothesis: () => psGetHyp(ps, score) ?? '',
        endUtterance: () => void psEndUtt(ps),
        free: () => void psFree(ps),
      };
    },
  };
  return loaded;
}

let available: boolean | null = null;

/** Whether the engine can run here: the shared libraries load and the model files are installed. */
export function pocketsphinxAvailable(): boolean {
  if (available !== null) return available;
  const modelFiles = [ACOUSTIC_MODEL_DIR, GENERIC_LM_PATH, CMU_DICT_PATH].every((file) => existsSync(file));
  let libraries = false;
  try {
    koffi.load(SPHINXBASE_SONAME);
    koffi.load(POCKETSPHINX_SONAME);
    libraries = true;
  } catch {
    libraries = false;
  }
  available = modelFiles && libraries;
  return available;
}
