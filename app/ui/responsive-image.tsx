import type { ComponentProps } from 'react';
import { candidateWidths, IMAGE_DENSITIES, type ImageDisplayWidth, isResizable, resizedUrl } from '#common/images.ts';

/**
 * `srcset` for a source shown `width` pixels wide: densities 1 and 2, or with `sizes` the
 * section 9 screen widths up to twice the largest needed.
 */
export function imageSrcSet(src: string, width: ImageDisplayWidth, sizes?: string): string | undefined {
  if (!isResizable(src)) return undefined;
  if (!sizes) return IMAGE_DENSITIES.map((d) => `${resizedUrl(src, width * d)} ${d}x`).join(', ');
  return candidateWidths(width, true)
    .map((w) => `${resizedUrl(src, w)} ${w}w`)
    .join(', ');
}

export type ResponsiveImageProps = Omit<ComponentProps<'img'>, 'src' | 'width' | 'height' | 'srcSet'> & {
  src: string;
  /** Intrinsic size: reserves the box before the image arrives (no layout shift); one of the widths the image endpoint serves. */
  width: ImageDisplayWidth;
  height: number;
  /** Below the fold by default: lazy. Pass true for images visible on arrival. */
  priority?: boolean;
};

/** An image with width and height set, lazy unless a priority, and resized WebP candidates for raster sources. */
export function ResponsiveImage({ src, width, height, sizes, priority = false, alt = '', ...rest }: ResponsiveImageProps) {
  const srcSet = imageSrcSet(src, width, sizes);
  return (
    <img
      src={srcSet ? resizedUrl(src, width) : src}
      srcSet={srcSet}
      sizes={srcSet ? sizes : undefined}
      width={width}
      height={height}
      alt={alt}
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
      {...rest}
    />
  );
}
