// The bundled Noto fonts (TrueType files of the @expo-google-fonts packages, resolved in node_modules,
// never copied into the repository): Noto Sans for Latin and symbols, and one Noto Sans <script> per
// Indic script. Each file is read once per process, on first use, so a report without Indic text
// never reads the Indic fonts. Indic faces have no italic: italic text in them is set upright.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { INDIC_SCRIPTS, type TScript } from './scripts.ts';

export type TFontFaces = { normal: Buffer; bold: Buffer; italics: Buffer; bolditalics: Buffer };

type TFontSource = {
  /** Family name used in the PDF document definition. */
  pdfFamily: string;
  /** Family name written into DOCX runs (the font's own name, which Word looks up). */
  docxFamily: string;
  packageName: string;
  /** File stem inside the package, e.g. "NotoSansDevanagari". */
  stem: string;
  hasItalic: boolean;
};

function capitalised(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

const SOURCES: Record<TScript, TFontSource> = {
  latin: {
    pdfFamily: 'NotoSans',
    docxFamily: 'Noto Sans',
    packageName: '@expo-google-fonts/noto-sans',
    stem: 'NotoSans',
    hasItalic: true,
  },
  ...(Object.fromEntries(
    INDIC_SCRIPTS.map((script) => [
      script,
      {
        pdfFamily: `NotoSans${capitalised(script)}`,
        docxFamily: `Noto Sans ${capitalised(script)}`,
        packageName: `@expo-google-fonts/noto-sans-${script}`,
        stem: `NotoSans${capitalised(script)}`,
        hasItalic: false,
      },
    ]),
  ) as Record<Exclude<TScript, 'latin'>, TFontSource>),
};

/** PDF (pdfmake) font family of a script. */
export function pdfFontFamily(script: TScript): string {
  return SOURCES[script].pdfFamily;
}

/** DOCX font name of a script. */
export function docxFontFamily(script: TScript): string {
  return SOURCES[script].docxFamily;
}

const require = createRequire(import.meta.url);

function fontPath(source: TFontSource, face: string): string {
  const packageDir = path.dirname(require.resolve(`${source.packageName}/package.json`));
  return path.join(packageDir, face, `${source.stem}_${face}.ttf`);
}

const loaded = new Map<TScript, Promise<TFontFaces>>();

/** The four faces of a script's font (Indic: italic faces are the upright ones), read once. */
export function fontFaces(script: TScript): Promise<TFontFaces> {
  let faces = loaded.get(script);
  if (!faces) {
    const source = SOURCES[script];
    faces = (async () => {
      const [normal, bold, italics, bolditalics] = await Promise.all([
        readFile(fontPath(source, '400Regular')),
        readFile(fontPath(source, '700Bold')),
        source.hasItalic ? readFile(fontPath(source, '400Regular_Italic')) : null,
        source.hasItalic ? readFile(fontPath(source, '700Bold_Italic')) : null,
      ]);
      return { normal, bold, italics: italics ?? normal, bolditalics: bolditalics ?? bold };
    })();
    // A failed read (a broken install) is retried on the next render instead of being cached.
    faces.catch(() => loaded.delete(script));
    loaded.set(script, faces);
  }
  return faces;
}
