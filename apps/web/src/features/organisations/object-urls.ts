import { useEffect, useRef, useState } from 'react';

export type TLetterheadPart = 'header' | 'footer';

/** A picked image with the object URL the preview shows it by. */
export interface TPickedImage {
  file: File;
  url: string;
}

/** Images picked on the letterhead screen and not uploaded yet. */
export type TPickedImages = Record<TLetterheadPart, TPickedImage | null>;

const NONE: TPickedImages = { header: null, footer: null };

/**
 * The picked header and footer images with their object URLs, made when a file is picked (so the
 * preview shows it at once) and revoked when it is replaced, discarded, uploaded or the screen closes.
 */
export function usePickedImages() {
  const [picked, setPickedState] = useState<TPickedImages>(NONE);
  const current = useRef<TPickedImages>(NONE);
  useEffect(() => {
    current.current = picked;
  }, [picked]);
  useEffect(
    () => () => {
      for (const image of [current.current.header, current.current.footer]) {
        if (image) URL.revokeObjectURL(image.url);
      }
      current.current = NONE;
    },
    [],
  );

  // Called from event handlers (once per pick), never from a state updater: object URLs are side effects.
  const set = (part: TLetterheadPart, file: File | null) => {
    const old = picked[part];
    if (old) URL.revokeObjectURL(old.url);
    setPickedState({ ...picked, [part]: file ? { file, url: URL.createObjectURL(file) } : null });
  };
  const clear = () => {
    for (const image of [picked.header, picked.footer]) if (image) URL.revokeObjectURL(image.url);
    setPickedState(NONE);
  };
  return { picked, set, clear };
}

export type TPickedImagesControl = ReturnType<typeof usePickedImages>;
