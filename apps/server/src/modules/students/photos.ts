import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type CatalogueMessage, STUDENT_MESSAGES } from '@mustard/shared';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { invalid } from '../../errors.js';

/** Learners' photos (security.md item 21). */
const ACCEPTED = new Set(['image/jpeg', 'image/png', 'image/webp']);
/** Enough for any phone camera; refuses decompression bombs (a tiny file of a huge image). */
const MAX_PIXELS = 40_000_000;
/** A passport-style photo on a report card or a screen needs no more. */
const STORED_SIZE = 600;
const STORED_NAME = /^[a-f0-9]{32}\.jpg$/;

function folderOf(dataDir: string, tenantId: string): string {
  return path.join(dataDir, 'photos', tenantId);
}

/** The field a refusal names and its words: a learner's photo by default; a school's badge names its own. */
export interface StoredPicture {
  field: string;
  notImage: CatalogueMessage;
  tooLarge: CatalogueMessage;
}
const PHOTO: StoredPicture = { field: 'photo', notImage: STUDENT_MESSAGES.photoNotImage, tooLarge: STUDENT_MESSAGES.photoTooLarge };

/**
 * Checks a picture by its bytes and re-encodes it as stored: a JPEG of at most 600 px, upright,
 * without any metadata. A sign-up keeps these bytes until its tenant (and folder) exists.
 */
export async function encodePicture(bytes: Buffer, as: StoredPicture = PHOTO): Promise<Buffer> {
  const type = await fileTypeFromBuffer(bytes);
  if (!type || !ACCEPTED.has(type.mime)) throw invalid({ [as.field]: [as.notImage] });
  try {
    const metadata = await sharp(bytes, { limitInputPixels: MAX_PIXELS }).metadata();
    if ((metadata.width ?? 0) * (metadata.height ?? 0) > MAX_PIXELS) throw invalid({ [as.field]: [as.tooLarge] });
    return await sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: 'error' })
      .rotate()
      .resize(STORED_SIZE, STORED_SIZE, { fit: 'inside', withoutEnlargement: true })
      // A transparent badge on white paper, not on the black JPEG gives what has no colour.
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85 })
      .toBuffer();
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 422) throw error;
    const message = String((error as Error).message);
    throw invalid({ [as.field]: [/pixel limit/i.test(message) ? as.tooLarge : as.notImage] });
  }
}

/** Writes re-encoded bytes (encodePicture's) under a random name in the tenant's folder; the name. */
export async function writePicture(dataDir: string, tenantId: string, encoded: Buffer): Promise<string> {
  const name = `${randomBytes(16).toString('hex')}.jpg`;
  const folder = folderOf(dataDir, tenantId);
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, name), encoded);
  return name;
}

/**
 * Checks an uploaded photo by its bytes (never its name or declared type), re-encodes it as a
 * JPEG of at most 600 px (upright, every bit of metadata such as EXIF and GPS dropped) and
 * stores it under a random name in the tenant's folder. Answers the stored name.
 */
export async function storePhoto(dataDir: string, tenantId: string, bytes: Buffer, as: StoredPicture = PHOTO): Promise<string> {
  return writePicture(dataDir, tenantId, await encodePicture(bytes, as));
}

/** The file of a stored photo, or null for a name that is not one of ours. */
export function photoFile(dataDir: string, tenantId: string, name: string | null): string | null {
  if (!name || !STORED_NAME.test(name)) return null;
  return path.join(folderOf(dataDir, tenantId), name);
}

export async function removePhoto(dataDir: string, tenantId: string, name: string | null): Promise<void> {
  const file = photoFile(dataDir, tenantId, name);
  if (file) await rm(file, { force: true });
}
