// Every route of the API, one module per URL prefix (checks and bank accounts have folders: their
// sub-resources are files of their own). app.ts registers them inside the authenticated scope.

import { bankAccountRoutes } from './bank-accounts/bank-accounts.route.ts';
import { micrTestPageRoutes } from './bank-accounts/micr-test-page.route.ts';
import { signatureRoutes } from './bank-accounts/signature.route.ts';
import { checkRegisterRoutes } from './bank-accounts/check-register.route.ts';
import { categoryRoutes } from './categories.route.ts';
import { checkAttachmentRoutes } from './checks/attachments.route.ts';
import { checkClearRoutes } from './checks/clear.route.ts';
import { checkRoutes } from './checks/checks.route.ts';
import { checkDeliveriesRoutes } from './checks/deliveries.route.ts';
import { checkPdfRoutes } from './checks/pdf.route.ts';
import { checkVoucherRoutes } from './checks/voucher.route.ts';
import { customFromAddressRoutes } from './custom-from-addresses.route.ts';
import { customToAddressRoutes } from './custom-to-addresses.route.ts';
import { emailCheckRoutes } from './email-checks.route.ts';
import { importRoutes } from './imports.route.ts';
import { mailCheckRoutes } from './mail-checks.route.ts';
import { payeeRoutes } from './payees.route.ts';
import { positivePayExportRoutes } from './positive-pay-exports.route.ts';
import { quickpayRoutes } from './quickpay.route.ts';
import { voucherRoutes } from './vouchers.route.ts';
import { sandboxRoutes } from './sandbox.route.ts';
import { webhookRoutes } from './webhooks.route.ts';

export const apiRoutes = [
  checkRoutes,
  checkVoucherRoutes,
  checkPdfRoutes,
  checkDeliveriesRoutes,
  checkAttachmentRoutes,
  bankAccountRoutes,
  micrTestPageRoutes,
  signatureRoutes,
  checkRegisterRoutes,
  checkClearRoutes,
  mailCheckRoutes,
  emailCheckRoutes,
  payeeRoutes,
  categoryRoutes,
  customFromAddressRoutes,
  customToAddressRoutes,
  webhookRoutes,
  sandboxRoutes,
  positivePayExportRoutes,
  importRoutes,
  quickpayRoutes,
  voucherRoutes,
];
