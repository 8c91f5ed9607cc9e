import { readFile } from 'node:fs/promises';
import type { ReportModel } from '@mustard/shared';
import { photoFile } from '../students/photos.js';

/*
 * The pictures a report draws (learners' photos), read from the school's folder once per
 * report: the PDF embeds each once and reuses it; the preview inlines them, because its frame
 * is sandboxed and a photo's address needs the signed-in session the frame does not have.
 */

/** The bytes of the school's badge and each photo the model's learners show, by its URL; a picture that cannot be read is left out. */
export async function reportImages(
  dataDir: string,
  tenantId: string,
  model: ReportModel,
  photoFiles: ReadonlyMap<string, string>,
  logoFile: string | null = null,
): Promise<Map<string, Uint8Array>> {
  const images = new Map<string, Uint8Array>();
  const files = new Map(photoFiles);
  if (model.school.logo && logoFile) files.set(model.school.logo, logoFile);
  const wanted = new Set([
    ...(model.school.logo ? [model.school.logo] : []),
    ...model.learners.flatMap((learner) => (learner.photo ? [learner.photo] : [])),
  ]);
  for (const url of wanted) {
    const file = photoFile(dataDir, tenantId, files.get(url) ?? null);
    if (!file) continue;
    const bytes = await readFile(file).catch(() => null);
    if (bytes) images.set(url, bytes);
  }
  return images;
}

/** The model with the badge and each photo it can show inlined as data URLs (the preview's), the others left out. */
export function withInlinePhotos(model: ReportModel, images: ReadonlyMap<string, Uint8Array>): ReportModel {
  const logo = model.school.logo ? images.get(model.school.logo) : undefined;
  return {
    ...model,
    school: { ...model.school, logo: logo ? `data:image/jpeg;base64,${Buffer.from(logo).toString('base64')}` : null },
    learners: model.learners.map((learner) => {
      const bytes = learner.photo ? images.get(learner.photo) : undefined;
      return { ...learner, photo: bytes ? `data:image/jpeg;base64,${Buffer.from(bytes).toString('base64')}` : null };
    }),
  };
}
