import sharp from 'sharp';
import type { ReportImages } from './draw.js';

/*
 * Images made the size a card prints them, before they go to the worker pool. A learner's photo
 * is stored at up to 600 px (students module) but printed in an 80 × 96 pt box (about 1.1 × 1.3
 * inches), the logo in 64 pt: 240 × 288 px is about 220 dpi there, more than a school's printer
 * shows, at a fraction of the bytes, which matters once every learner of a class has a photo
 * (each is embedded once, but each learner's is their own).
 *
 * sharp works on libuv's threads, off the event loop. A logo or photo in another format sharp
 * reads (WebP, GIF) comes out as PNG or JPEG, which pdfkit embeds; bytes sharp cannot read are
 * passed on as they are (the card leaves out what it cannot draw).
 */

export const PRINT_IMAGE_PX = { width: 240, height: 288 };

async function forPrint(bytes: Uint8Array): Promise<Uint8Array> {
  try {
    const image = sharp(bytes, { failOn: 'error' });
    const { format, width = 0, height = 0, hasAlpha } = await image.metadata();
    const small = width <= PRINT_IMAGE_PX.width && height <= PRINT_IMAGE_PX.height;
    if (small && (format === 'jpeg' || format === 'png')) return bytes;
    const resized = image.rotate().resize({ ...PRINT_IMAGE_PX, fit: 'inside', withoutEnlargement: true });
    const out = await (hasAlpha || format === 'png' ? resized.png() : resized.jpeg({ quality: 82 })).toBuffer();
    return out.byteLength < bytes.byteLength || !(format === 'jpeg' || format === 'png') ? out : bytes;
  } catch {
    return bytes;
  }
}

/** The same images (by the same URLs) at the size a card prints them. */
export async function imagesForPrint(images: ReportImages): Promise<Map<string, Uint8Array>> {
  const entries = await Promise.all([...images].map(async ([url, bytes]) => [url, await forPrint(bytes)] as const));
  return new Map(entries);
}
