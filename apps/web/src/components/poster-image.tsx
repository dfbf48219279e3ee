import { useState, type ImgHTMLAttributes } from 'react';

/** What a title without artwork (or whose artwork the image host cannot deliver) shows. */
export const POSTER_PLACEHOLDER = '/placeholder.svg';

type Props = Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'onError'> & {
  src: string | null | undefined;
};

/**
 * An image from our image proxy that falls back to the placeholder when it cannot be loaded (the image
 * host is down or the file is gone), instead of the browser's broken-image icon.
 */
export function PosterImage({ src, alt, ...rest }: Props) {
  const [failed, setFailed] = useState<string | null>(null);
  const usable = src && src !== failed ? src : POSTER_PLACEHOLDER;
  return (
    <img
      {...rest}
      alt={alt}
      src={usable}
      onError={() => {
        if (usable !== POSTER_PLACEHOLDER) setFailed(usable);
      }}
    />
  );
}
