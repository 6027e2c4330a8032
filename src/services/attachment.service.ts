// Files added to a check, sent with its email when `sendAttachment` is 1.
import type { Owner } from '../domain/owner.ts';
import { newId } from '../domain/ids.ts';
import { sniffFileType } from '../domain/file-types.ts';
import { AppError, notFound } from '../errors.ts';
import * as checks from '../store/checks/checks.repository.ts';
import * as attachments from '../store/attachments.repository.ts';
import type { AttachmentMeta } from '../domain/delivery.ts';
import type { ServiceContext } from './context.ts';
import { rules } from './validation.ts';

export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;
export const MAX_ATTACHMENTS_PER_CHECK = 10;

function cleanFilename(name: string, type: string): string {
  const base = name
    .replace(/[^\w.\- ]+/g, '_')
    .replace(/^[.\s]+/, '')
    .slice(0, 100);
  const extension = type === 'application/pdf' ? '.pdf' : type === 'image/png' ? '.png' : '.jpg';
  return base === '' ? `attachment${extension}` : base;
}

export async function addAttachment(
  ctx: ServiceContext,
  owner: Owner,
  checkId: string,
  file: { filename: string; data: Buffer },
): Promise<AttachmentMeta> {
  const type = sniffFileType(file.data);
  if (type === null) throw rules.custom('file', 'must be a PDF, PNG or JPEG file');
  const now = ctx.now();
  const meta: AttachmentMeta = {
    id: newId('att', now),
    checkId,
    filename: cleanFilename(file.filename, type),
    contentType: type,
    size: file.data.length,
    createdAt: now,
  };
  await ctx.db.transaction(async (tx) => {
    if ((await checks.findCheck(tx, owner, checkId)) === undefined) throw notFound('Check');
    const existing = await attachments.listAttachments(tx, owner, checkId);
    if (existing.length >= MAX_ATTACHMENTS_PER_CHECK)
      throw rules.custom('file', `cannot be added: a check holds at most ${MAX_ATTACHMENTS_PER_CHECK} attachments`);
    await attachments.insertAttachment(tx, owner, meta, file.data);
  });
  return meta;
}

export async function listAttachments(ctx: ServiceContext, owner: Owner, checkId: string): Promise<AttachmentMeta[]> {
  if ((await checks.findCheck(ctx.db, owner, checkId)) === undefined) throw notFound('Check');
  return attachments.listAttachments(ctx.db, owner, checkId);
}

export async function removeAttachment(
  ctx: ServiceContext,
  owner: Owner,
  checkId: string,
  attachmentId: string,
): Promise<void> {
  if ((await attachments.deleteAttachment(ctx.db, owner, checkId, attachmentId)) === 0)
    throw new AppError('not_found', 'Attachment not found.');
}

/** One attachment's record (GET /checks/{id}/attachments/{attachmentId}, the hosted service's read). */
export async function getAttachment(
  ctx: ServiceContext,
  owner: Owner,
  checkId: string,
  attachmentId: string,
): Promise<AttachmentMeta> {
  const found = (await listAttachments(ctx, owner, checkId)).find((a) => a.id === attachmentId);
  if (found === undefined) throw new AppError('not_found', 'Attachment not found.');
  return found;
}
