/** Image defaults of spec section 9, shared by the image component and the image endpoint. */
const IMAGE_QUALITY = 85;
export const IMAGE_DENSITIES = [1, 2] as const;
export type ImageFormat = 'webp';
const IMAGE_FORMAT: ImageFormat = 'webp';
/** Screen widths of spec section 9 (xs, sm, md, lg, xl, 2xl): candidate widths for `sizes`. */
const IMAGE_SCREENS = [320, 640, 768, 1024, 1280, 1536] as const;
/** The widths pages show resized images at: achievement icons, screenshots (portrait, landscape), tiles, the app page's cover. */
export const IMAGE_DISPLAY_WIDTHS = [48, 270, 320, 480, 640] as const;
export type ImageDisplayWidth = (typeof IMAGE_DISPLAY_WIDTHS)[number];
const IMAGE_MIN_WIDTH = 16;
const IMAGE_MAX_WIDTH = 3072;

/** The widths offered for an image shown `width` wide: densities 1 and 2, or with `sizes` the screen widths up to twice it. */
export function candidateWidths(width: number, withSizes: boolean): number[] {
  if (!withSizes) return IMAGE_DENSITIES.map((density) => width * density);
  return [...new Set([...IMAGE_SCREENS.filter((screen) => screen < width * 2), width, width * 2])].sort((a, b) => a - b);
}

/**
 * Every width the image endpoint resizes to: exactly the ones pages ask for. Any other width,
 * quality or format is refused, so no client can make the server encode (and cache) thousands of
 * variants of one image.
 */
export const IMAGE_WIDTHS: ReadonlySet<number> = new Set(
  IMAGE_DISPLAY_WIDTHS.flatMap((width) => [...candidateWidths(width, false), ...candidateWidths(width, true)]),
);
/** Path prefix of the image endpoint: `/_img/w_{width},q_{quality},f_{format}{source path}`. */
export const IMAGE_ENDPOINT = '/_img/';

/** Raster files, and SVG: a browser builds a whole document for every SVG image (tens of ms of main thread each), so pages show SVG as WebP too. */
const RESIZABLE = /\.(png|jpe?g|webp|gif|avif|svg)$/i;
const SOURCES = /^\/(games|uploads)\/[^?#]*$/;

/** Whether the image endpoint can resize a source: our own raster and SVG files. */
export function isResizable(src: string): boolean {
  return SOURCES.test(src) && RESIZABLE.test(src) && !src.split('/').includes('..');
}

/** The URL of a source resized to `width` pixels wide, as WebP at quality 85. */
export function resizedUrl(src: string, width: number): string {
  const w = Math.min(IMAGE_MAX_WIDTH, Math.max(IMAGE_MIN_WIDTH, Math.round(width)));
  return `${IMAGE_ENDPOINT}w_${w},q_${IMAGE_QUALITY},f_${IMAGE_FORMAT}${src}`;
}

export interface ImageRequest {
  width: number;
  quality: number;
  format: ImageFormat;
  source: string;
}

/** Reads `w_…,q_…,f_…` and the source path of an image URL below IMAGE_ENDPOINT; null when anything is off. */
export function parseImageRequest(modifiers: string, source: string): ImageRequest | null {
  const match = /^w_(\d{1,4}),q_(\d{1,3}),f_([a-z]+)$/.exec(modifiers);
  if (!match) return null;
  const width = Number(match[1]);
  const quality = Number(match[2]);
  const format = match[3] as ImageFormat;
  if (!IMAGE_WIDTHS.has(width) || quality !== IMAGE_QUALITY || format !== IMAGE_FORMAT) return null;
  const path = source.startsWith('/') ? source : `/${source}`;
  if (!isResizable(path)) return null;
  return { width, quality, format, source: path };
}
