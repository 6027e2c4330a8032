// A panel upload kept as a draft until its preview is confirmed (the file is too large to carry in
// a form): at most MAX_DRAFTS per owner, and none older than DRAFT_TTL_MS (the runner deletes them).
// Each view of a draft reads its file again, within the file's bounds (read-import-file.ts), so a
// view costs at most what the upload did.
import type { Owner, Principal } from '../../domain/owner.ts';
import { AppError } from '../../errors.ts';
import type { ImportRecord } from '../../domain/import-record.ts';
import * as importStore from '../../store/imports.repository.ts';
import type { ServiceContext } from '../context.ts';
import { type ImportOptions, MAX_DRAFTS } from './model.ts';
import { ImportRefused, newRecord, previewImport, readFileOrRefuse } from './preview.service.ts';
import { recordStart } from './records.service.ts';
import { getImport } from './records.service.ts';

/** Keeps an upload as a draft; a file that cannot be read (or is past a bound) is refused now. */
export async function saveDraft(ctx: ServiceContext, owner: Owner, options: ImportOptions): Promise<ImportRecord> {
  await readFileOrRefuse(ctx, owner, options);
  const record = newRecord(owner, options, 'draft', JSON.stringify({ csv: options.csv }), 0, ctx.now());
  await ctx.db.transaction(async (tx) => {
    await importStore.insertImport(tx, record);
    await importStore.trimDrafts(tx, owner, MAX_DRAFTS);
  });
  return record;
}

/** The CSV of a draft. */
export function draftCsv(record: ImportRecord): string {
  const parsed = JSON.parse(record.input) as { csv?: unknown };
  return typeof parsed.csv === 'string' ? parsed.csv : '';
}

/** Confirms a draft with the options chosen on the preview: checked again, then queued. */
export async function startDraft(
  ctx: ServiceContext,
  principal: Principal,
  id: string,
  options: Omit<ImportOptions, 'csv' | 'kind'>,
): Promise<ImportRecord> {
  const draft = await getImport(ctx, principal, id);
  if (draft.state !== 'draft') throw new AppError('conflict', 'This import has already been started.');
  const preview = await previewImport(ctx, principal, { ...options, kind: draft.kind, csv: draftCsv(draft) });
  if (preview.errors.length > 0) throw new ImportRefused(preview.errors);
  // Queued with its audit record, as an import started over the API is: the trail says who started it.
  await ctx.db.transaction(async (tx) => {
    const queued = await importStore.queueDraft(tx, principal, id, JSON.stringify(preview.input), preview.rowsTotal);
    if (queued === 0) throw new AppError('conflict', 'This import has already been started.');
    await recordStart(tx, principal, id, draft.kind, preview.rowsTotal, ctx.now());
  });
  return getImport(ctx, principal, id);
}
