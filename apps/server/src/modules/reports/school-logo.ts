import { REPORT_MESSAGES } from '@mustard/shared';
import { recordAudit } from '../../audit/audit.repository.js';
import type { TenantTx } from '../../db/tenant.js';
import { encodePicture, removePhoto, type StoredPicture, storePhoto, writePicture } from '../students/photos.js';

/*
 * The school's badge (issue 24 point 3): a picture checked and re-encoded like a learner's photo
 * and stored beside the photos in the school's own folder (students/photos.ts); the tenant's row
 * names the file. The file is written before the action's transaction and removed again if it
 * fails; the one it replaces goes after the commit (the route does both).
 */

export const LOGO: StoredPicture = { field: 'logo', notImage: REPORT_MESSAGES.logoNotImage, tooLarge: REPORT_MESSAGES.logoTooLarge };

/** Stores the uploaded badge's bytes; the stored file's name (422 naming `logo` for what is not a picture). */
export const storeLogo = (dataDir: string, tenantId: string, bytes: Buffer) => storePhoto(dataDir, tenantId, bytes, LOGO);

/**
 * A badge given at sign-up (tenants' registration), checked and re-encoded before its school
 * exists: the bytes wait with the registration and are written by `writeLogo` once it does.
 */
export const encodeLogo = (bytes: Buffer) => encodePicture(bytes, LOGO);
export const writeLogo = (dataDir: string, tenantId: string, encoded: Buffer) => writePicture(dataDir, tenantId, encoded);
/** Removes a written badge whose transaction did not commit. */
export const removeLogo = (dataDir: string, tenantId: string, file: string) => removePhoto(dataDir, tenantId, file);

/** The stored file of the school's badge, or null without one. */
export async function logoPath(tx: TenantTx): Promise<string | null> {
  const row = await tx.trx.selectFrom('tenants').select('logo_path').where('id', '=', tx.tenantId).executeTakeFirst();
  return row?.logo_path ?? null;
}

/** Names `file` (or nothing) as the school's badge; the file it replaces, to remove after the commit. */
export async function setLogo(tx: TenantTx, file: string | null): Promise<string | null> {
  const before = await logoPath(tx);
  await tx.trx.updateTable('tenants').set({ logo_path: file, updated_at: new Date() }).where('id', '=', tx.tenantId).execute();
  await recordAudit(tx, {
    action: 'update',
    entity: 'school_logo',
    entityId: tx.tenantId,
    before: { logo: before !== null },
    after: { logo: file !== null },
  });
  return before !== file ? before : null;
}
