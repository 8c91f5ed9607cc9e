import { readFile } from 'node:fs/promises';
import type { ReportModel } from '@mustard/shared';
import { photoFile } from '../students/photos.js';

/*
 * The pictures a report draws (learners' photos), read from the school's folder once per
 * report: the PDF embeds each once and reuses it; the preview inlines them, because its frame
 * is sandboxed and a photo's address needs the signed-in session the frame does not have.
 */

/** The bytes of each photo the model's learners show, by its URL; a photo that cannot be read is left out. */
export async function reportImages(
  dataDir: string,
  tenantId: string,
  model: ReportModel,
  photoFiles: ReadonlyMap<string, string>,
): Promise<Map<string, Uint8Array>> {
  const images = new Map<string, Uint8Array>();
  const wanted = new Set(model.learners.flatMap((learner) => (learner.photo ? [learner.photo] : [])));
  for (const url of wanted) {
    const file = photoFile(dataDir, tenantId, photoFiles.get(url) ?? null);
    if (!file) continue;
    const bytes = await readFile(file).catch(() => null);
    if (bytes) images.set(url, bytes);
  }
  return images;
}

/** The model with each photo it can show inlined as a data URL (the preview's), the others left out. */
export function withInlinePhotos(model: ReportModel, images: ReadonlyMap<string, Uint8Array>): ReportModel {
  return {
    ...model,
    learners: model.learners.map((learner) => {
      const bytes = learner.photo ? images.get(learner.photo) : undefined;
      return { ...learner, photo: bytes ? `data:image/jpeg;base64,${Buffer.from(bytes).toString('base64')}` : null };
    }),
  };
}
