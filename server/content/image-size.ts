import { extname } from 'node:path';
import sharp from 'sharp';

/** Formats an article may show: what browsers display and sharp can measure. */
const IMAGE_TYPES: Record<string, string> = {
  '.svg': 'svg',
  '.png': 'png',
  '.jpg': 'jpeg',
  '.jpeg': 'jpeg',
  '.webp': 'webp',
  '.gif': 'gif',
  '.avif': 'heif',
};

/** Intrinsic size of an image file, or an error message that names what is wrong with it. */
export async function measureImage(bytes: Buffer, path: string): Promise<{ width: number; height: number } | string> {
  const expected = IMAGE_TYPES[extname(path).toLowerCase()];
  if (!expected) return `must be an image (${Object.keys(IMAGE_TYPES).join(', ')})`;
  try {
    const meta = await sharp(bytes).metadata();
    if (meta.format !== expected) return `is not a ${expected.toUpperCase()} image although its name says so`;
    if (!meta.width || !meta.height) return 'has no width and height';
    return { width: meta.width, height: meta.height };
  } catch {
    return 'cannot be read as an image';
  }
}
