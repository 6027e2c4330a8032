// Bank accounts in the panel: the record forms (records/records.pages.ts draws them), the
// signature and logo uploads, masked account numbers only (the full number is typed once, when the
// account is made, and never drawn back), and the next check number, editable.
import { needs } from '../shell/access.ts';
import { needsRecentFactor } from '../shell/step-up.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { BankAccount } from '../../domain/bank-account.ts';
import type { Environment, Principal } from '../../domain/owner.ts';
import { MAX_PRINT_OFFSET } from '../../domain/print-offset.ts';
import { AppError } from '../../errors.ts';
import { BankAccountInput, type BankAccountChanges, UpdateBankAccountBody } from '../../schemas/bank-accounts.ts';
import * as addressService from '../../services/address.service.ts';
import * as bankAccountService from '../../services/bank-account.service.ts';
import type { PanelDeps } from '../shell/deps.ts';
import { layoutChoiceForm } from './positive-pay-layout.pages.ts';
import { html, type Html } from '../shell/html.ts';
import { csrfField, page, sendPage, withEnv } from '../shell/layout.ts';
import { type FieldSpec, schemaProblems, type Values } from '../shell/record-form.ts';
import type { RecordKind } from '../records/record-kind.ts';
import { envOf, principalFor } from '../shell/session.ts';
import { acceptUploads, imageRefusal, type UploadRefusal, uploadOf, uploadProblem } from '../shell/uploads.ts';

/** At most this many from addresses are offered as a bank account's drawer address. */
const FROM_ADDRESS_CHOICES = 200;

async function fromAddressOptions(deps: PanelDeps, owner: Principal): Promise<{ value: string; label: string }[]> {
  const { items } = await addressService.listAddresses(deps.ctx, owner, 'from', {
    limit: FROM_ADDRESS_CHOICES,
    offset: 0,
    term: null,
  });
  return [
    { value: '', label: "The account's company (settings)" },
    ...items.map((a) => ({ value: a.id, label: [a.name, a.city].filter((p) => p !== '').join(', ') })),
  ];
}

const COMMON: readonly FieldSpec[] = [
  { name: 'name', label: 'Name', required: true, maxLength: 100, hint: 'how you tell your accounts apart' },
  { name: 'bankName', label: 'Bank name', maxLength: 100 },
  { name: 'bankAddress', label: 'Bank address', maxLength: 200, hint: 'printed under the bank name' },
];

/** Text as a JSON body would carry a whole number ('' and non-digits stay text: the schema names them). */
function integerOf(text: string): number | string {
  return /^-?[0-9]{1,6}$/.test(text) ? Number(text) : text;
}

/** The form as `POST /bankAccounts` would carry one item (text fields; the schema checks them). */
function createBody(values: Values): BankAccountInput {
  const startingSerial = values.startingSerial ?? '';
  return {
    name: values.name ?? '',
    bankName: values.bankName ?? '',
    bankAddress: values.bankAddress ?? '',
    routingNumber: values.routingNumber ?? '',
    accountNumber: values.accountNumber ?? '',
    ...(startingSerial === '' ? {} : { startingSerial }),
    customFromAddressId: values.customFromAddressId === '' ? null : (values.customFromAddressId ?? null),
  };
}

/** The edit form as `PUT /bankAccounts/{id}` would carry it; an empty offset is 0. */
function updateBody(values: Values): Record<string, unknown> {
  return {
    name: values.name ?? '',
    bankName: values.bankName ?? '',
    bankAddress: values.bankAddress ?? '',
    nextSerial: values.nextSerial ?? '',
    customFromAddressId: values.customFromAddressId === '' ? null : (values.customFromAddressId ?? null),
    printOffsetX: integerOf(values.printOffsetX === '' ? '0' : (values.printOffsetX ?? '0')),
    printOffsetY: integerOf(values.printOffsetY === '' ? '0' : (values.printOffsetY ?? '0')),
  };
}

/** The changes, once `updateBody` passed the schema: the offsets are then whole numbers. */
function changesOf(values: Values): BankAccountChanges {
  return {
    name: values.name ?? '',
    bankName: values.bankName ?? '',
    bankAddress: values.bankAddress ?? '',
    nextSerial: values.nextSerial ?? '',
    customFromAddressId: values.customFromAddressId === '' ? null : (values.customFromAddressId ?? null),
    printOffsetX: Number(values.printOffsetX === '' ? '0' : values.printOffsetX),
    printOffsetY: Number(values.printOffsetY === '' ? '0' : values.printOffsetY),
  };
}

export const bankAccountsKind: RecordKind<BankAccount> = {
  key: 'bank-accounts',
  path: '/bank-accounts',
  title: 'Bank accounts',
  singular: 'bank account',
  searchHint: 'name, bank',
  manage: 'bank-accounts.manage',
  stepUp: true,
  columns: ['Name', 'Bank', 'Routing number', 'Account number', 'Next check number', 'Signature', 'Bank account id'],
  row: (b) => [
    b.name,
    b.bankName,
    b.routingNumber,
    b.accountNumberMasked,
    String(b.nextSerial),
    b.hasSignature ? 'On file' : 'None',
    html`<code>${b.id}</code>`,
  ],
  idOf: (b) => b.id,
  nameOf: (b) => b.name,
  list: (deps, owner, p) => bankAccountService.listBankAccounts(deps.ctx, owner, p),
  find: (deps, owner, id) => bankAccountService.getBankAccount(deps.ctx, owner, id),
  fields: async (deps, owner, editing) => {
    const fromAddress: FieldSpec = {
      name: 'customFromAddressId',
      label: 'Drawer address printed on the checks',
      kind: 'select',
      options: await fromAddressOptions(deps, owner),
    };
    if (editing === undefined) {
      return [
        ...COMMON,
        { name: 'routingNumber', label: 'Routing number', required: true, kind: 'number', hint: '9 digits' },
        {
          name: 'accountNumber',
          label: 'Account number',
          required: true,
          kind: 'number',
          autocomplete: 'off',
          hint: '4 to 17 digits; shown only as its last four digits once saved',
        },
        { name: 'startingSerial', label: 'Starting check number', kind: 'number', hint: 'default 10001' },
        fromAddress,
      ];
    }
    return [
      ...COMMON,
      {
        name: 'nextSerial',
        label: 'Next check number',
        required: true,
        kind: 'number',
        hint: 'the number the next check written on this account gets',
      },
      fromAddress,
      {
        name: 'printOffsetX',
        label: 'Printer offset right',
        kind: 'number',
        inputmode: 'numeric',
        hint: `hundredths of an inch, −${MAX_PRINT_OFFSET} to ${MAX_PRINT_OFFSET}: print one check on plain paper, hold it over your check stock against the light, and move the print right (positive) or left (negative) by what it is off`,
      },
      {
        name: 'printOffsetY',
        label: 'Printer offset down',
        kind: 'number',
        inputmode: 'numeric',
        hint: `hundredths of an inch, −${MAX_PRINT_OFFSET} to ${MAX_PRINT_OFFSET}: down (positive) or up (negative), measured the same way`,
      },
    ];
  },
  valuesOf: (b) => ({
    name: b.name,
    bankName: b.bankName,
    bankAddress: b.bankAddress,
    nextSerial: String(b.nextSerial),
    customFromAddressId: b.customFromAddressId ?? '',
    printOffsetX: String(b.printOffsetX),
    printOffsetY: String(b.printOffsetY),
  }),
  check: (values, editing) =>
    editing
      ? schemaProblems(UpdateBankAccountBody, updateBody(values))
      : schemaProblems(BankAccountInput, { ...createBody(values) }),
  create: async (deps, owner, values) => {
    const [account] = await bankAccountService.createBankAccounts(deps.ctx, owner, [createBody(values)]);
    if (account === undefined) throw new Error('a bank account create returned nothing');
    return account;
  },
  update: async (deps, owner, id, values) => {
    await bankAccountService.updateBankAccount(deps.ctx, owner, id, changesOf(values));
  },
  remove: (deps, owner, id) => bankAccountService.deleteUnusedBankAccount(deps.ctx, owner, id),
  secretFields: ['accountNumber'],
  facts: (b) => html`<section class="card"><dl class="facts"><dt>Routing number</dt><dd>${b.routingNumber}</dd>
<dt>Account number</dt><dd>${b.accountNumberMasked} <span class="hint">(only the last four digits are ever shown)</span></dd>
<dt>Signature</dt><dd>${b.hasSignature ? 'On file' : 'None'}</dd><dt>Bank account id</dt><dd><code class="id">${b.id}</code></dd></dl></section>`,
  wide: true,
  extra: async (deps, request, env, b) =>
    html`${uploadForms(request, env, b, await bankAccountService.hasLogo(deps.ctx, principalFor(request, env), b.id))}${await layoutChoiceForm(deps, request, env, b)}`,
};

type ImageKind = 'signature' | 'logo';

const IMAGE_TEXT: Record<ImageKind, { title: string; limit: number; hint: string }> = {
  signature: {
    title: 'Signature',
    limit: bankAccountService.MAX_SIGNATURE_BYTES,
    hint: 'printed in the signature box of every check on this account',
  },
  logo: {
    title: 'Logo',
    limit: bankAccountService.MAX_LOGO_BYTES,
    hint: "printed at the top left of this account's checks; without one, the account's logo (settings) is used",
  },
};

/**
 * The signature as a check prints it: the image fitted into the signature box (2.4 by 0.54 inches
 * on the check, kept in proportion here), resting on the line, centred, above AUTHORIZED SIGNATURE.
 */
function signaturePreview(b: BankAccount, env: Environment): Html {
  const src = withEnv(`/panel/bank-accounts/${encodeURIComponent(b.id)}/signature`, env);
  return html`<figure class="signature-preview"><div class="signature-box"><img src="${src}" alt="The signature on file for ${b.name}, as checks print it"></div>
<figcaption>AUTHORIZED SIGNATURE</figcaption></figure>`;
}

function uploadForm(
  request: FastifyRequest,
  env: Environment,
  b: BankAccount,
  what: ImageKind,
  onFile: boolean,
  problem?: string,
): Html {
  const text = IMAGE_TEXT[what];
  const action = `/panel/bank-accounts/${encodeURIComponent(b.id)}/${what}`;
  const id = `upload-${what}`;
  const errorId = `${id}-error`;
  return html`<section class="card" aria-labelledby="${id}-h"><h2 id="${id}-h">${text.title}</h2>
${what === 'signature' && onFile ? signaturePreview(b, env) : ''}<p>${onFile ? html`<span class="status ok">On file</span>` : html`<span class="status">None</span>`} <span class="hint">${text.hint}.</span></p>
<form method="post" action="${action}" enctype="multipart/form-data">${csrfField(request)}<input type="hidden" name="env" value="${env}">
<label for="${id}">${onFile ? 'Replace with' : 'Upload'} a PNG or JPEG image <span class="hint">— at most ${Math.round(text.limit / 1024)} KB</span></label>
<input type="file" id="${id}" name="file" accept="image/png,image/jpeg" required${problem === undefined ? '' : html` aria-invalid="true" aria-describedby="${errorId}"`}>
${problem === undefined ? '' : html`<p class="field-error" id="${errorId}">${problem}</p>`}
<button type="submit">Upload ${what}</button></form>
${
  onFile
    ? html`<form method="post" action="${action}/delete">${csrfField(request)}<input type="hidden" name="env" value="${env}"><button class="secondary" type="submit">Remove the ${what}</button></form>`
    : ''
}</section>`;
}

function uploadForms(
  request: FastifyRequest,
  env: Environment,
  b: BankAccount,
  hasLogo: boolean,
  problems: Partial<Record<ImageKind, string>> = {},
): Html {
  return html`${uploadForm(request, env, b, 'signature', b.hasSignature, problems.signature)}${uploadForm(request, env, b, 'logo', hasLogo, problems.logo)}`;
}

/** The signature and logo upload routes (multipart, this scope only). */
export async function bankAccountUploads(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  const { ctx } = deps;
  // The larger of the two limits bounds the parser; each route then holds its image to its own.
  await acceptUploads(app, Math.max(bankAccountService.MAX_SIGNATURE_BYTES, bankAccountService.MAX_LOGO_BYTES));

  const refused = async (
    request: FastifyRequest,
    reply: FastifyReply,
    account: BankAccount,
    what: ImageKind,
    { message, status }: UploadRefusal,
  ): Promise<FastifyReply> => {
    const env = envOf(request);
    const owner = principalFor(request, env);
    const hasLogo = await bankAccountService.hasLogo(ctx, owner, account.id);
    const body = html`<p><a href="${withEnv(`/panel/bank-accounts/${encodeURIComponent(account.id)}`, env)}">← ${account.name}</a></p>
<h1>${account.name} <span class="hint">(bank account, ${env})</span></h1>${uploadForms(request, env, account, hasLogo, { [what]: message })}`;
    return sendPage(
      reply,
      page(
        {
          title: `${account.name}: ${what}`,
          request,
          current: 'bank-accounts',
          env,
          narrow: true,
          problem: `The ${what} was not saved.`,
        },
        body,
      ),
      status,
    );
  };

  // The signature preview's image: the stored bytes, PNG or JPEG by their first bytes. A GET that
  // reads only; another account's or environment's id is a 404 (getBankAccount in the service).
  app.get('/:id/signature', needs('read'), async (request, reply) => {
    const { id } = request.params as { id: string };
    const image = await bankAccountService.signatureImage(ctx, principalFor(request, envOf(request)), id);
    if (image === null) throw new AppError('not_found', 'No signature is on file for this bank account.');
    const png = image.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    return reply.type(png ? 'image/png' : 'image/jpeg').send(image);
  });

  for (const what of ['signature', 'logo'] as const) {
    const limit = IMAGE_TEXT[what].limit;
    app.post(`/:id/${what}`, needsRecentFactor('bank-accounts.manage'), async (request, reply) => {
      const env = envOf(request);
      const owner = principalFor(request, env);
      const { id } = request.params as { id: string };
      const account = await bankAccountService.getBankAccount(ctx, owner, id);
      const problem = uploadProblem(request, limit);
      const upload = uploadOf(request);
      if (problem !== null || upload === null)
        return refused(request, reply, account, what, problem ?? { message: '', status: 422 });
      try {
        if (what === 'signature') await bankAccountService.setSignature(ctx, owner, id, upload.bytes);
        else await bankAccountService.setLogo(ctx, owner, id, upload.bytes);
      } catch (error) {
        const refusal = imageRefusal(error);
        if (refusal !== null) return refused(request, reply, account, what, refusal);
        throw error;
      }
      return reply.redirect(withEnv(`/panel/bank-accounts/${encodeURIComponent(id)}?notice=${what}-saved`, env), 303);
    });

    app.post(`/:id/${what}/delete`, needsRecentFactor('bank-accounts.manage'), async (request, reply) => {
      const env = envOf(request);
      const owner = principalFor(request, env);
      const { id } = request.params as { id: string };
      if (what === 'signature') await bankAccountService.setSignature(ctx, owner, id, null);
      else await bankAccountService.setLogo(ctx, owner, id, null);
      return reply.redirect(withEnv(`/panel/bank-accounts/${encodeURIComponent(id)}?notice=image-removed`, env), 303);
    });
  }
}
