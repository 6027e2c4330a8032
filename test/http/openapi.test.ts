import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { BASE, startTestApp, type TestApp } from '../support/app.ts';

// The document is built from the route schemas the server enforces; this checks it with an
// independent validator and that it describes the spec's operations.
describe('OpenAPI document', () => {
  let t: TestApp;
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON document, walked freely by the assertions
  let doc: Record<string, any>;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    const res = await t.app.inject({ method: 'GET', url: `${BASE}/openapi.json` });
    expect(res.statusCode).toBe(200);
    doc = JSON.parse(res.body);
  });
  afterAll(() => t.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('describes every spec operation with bearer JWT security and the spec error shapes', () => {
    const operations: [string, string][] = [
      ['/checks', 'post'],
      ['/checks', 'get'],
      ['/checks/{checkId}', 'get'],
      ['/emailchecks', 'post'],
      ['/payees/{payeeId}', 'put'],
      ['/customFromAddresses/{customFromAddressId}', 'get'],
    ];
    for (const [path, method] of operations) {
      const operation = doc.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(Object.keys(operation.responses)).toContain('401');
    }
    expect(doc.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(doc.components.schemas.ErrorBody.properties).toHaveProperty('errorMsg');
    expect(Object.keys(doc.paths['/checks'].post.responses)).toContain('201');
    expect(doc.paths['/checks'].get.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      'approval',
      'page',
      'perPage',
      'referenceId',
      'status',
      'term',
    ]);
    const checkInput = doc.paths['/checks'].post.requestBody.content['application/json'].schema.properties.checks.items;
    expect(checkInput.additionalProperties).toBe(false);
    expect(checkInput.properties.memo.maxLength).toBe(150);
    expect(doc.servers[0].url).toMatch(/\/api\/v3$/);
  });

  it('tells the tolerances clients of the hosted service rely on (issue 11)', () => {
    expect(doc.info.description).toMatch(/null is read as not given/);
    const page = doc.paths['/payees'].get.parameters.find((p: { name: string }) => p.name === 'page');
    expect(page.schema).toMatchObject({ type: 'string', pattern: '^([+-]?[0-9]+)?$' });
    expect(page.description ?? page.schema.description).toMatch(/below 1 \(or empty\) mean 1/);
    const categories = doc.paths['/categories'].post.requestBody.content['application/json'].schema;
    expect(categories.anyOf).toHaveLength(2);
    expect(Object.keys(categories.anyOf[1].properties)).toEqual(['name', 'type']);
    const mail = doc.paths['/mailchecks'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(mail.properties).sort()).toEqual([
      'customFromAddressId',
      'customShippingTypeId',
      'customToAddressId',
      'isShippingToCustomAddress',
      'mailChecks',
    ]);
    expect(Object.keys(mail.properties.mailChecks.items.properties).sort()).toEqual([
      'checkId',
      'customToAddressId',
      'enableEmailInform',
      'enableSmsInform',
      'informTypeId',
      'paperTypeId',
      'payeeEmail',
      'payeePhone',
      'shippingTypeId',
    ]);
    expect(
      mail.properties.mailChecks.items.properties.shippingTypeId.anyOf.map((s: { type: string }) => s.type),
    ).toEqual(['integer', 'string']);
  });

  it("describes the hosted service's routes beyond the spec (issue 25), each marked so", () => {
    const beyond: [string, string][] = [
      ['/quickpay/check', 'post'],
      ['/quickpay/mailcheck', 'post'],
      ['/quickpay/echeck', 'post'],
      ['/quickpay/directdeposit', 'post'],
      ['/quickpay/virtualcard', 'post'],
      ['/quickpay/wire', 'post'],
      ['/vouchers', 'post'],
      ['/vouchers/{voucherId}', 'get'],
      ['/vouchers/{voucherId}', 'delete'],
      ['/customToAddresses/{customToAddressId}', 'get'],
      ['/customToAddresses/{customToAddressId}', 'delete'],
      ['/customFromAddresses/{customFromAddressId}', 'delete'],
      ['/checks/{checkId}/attachments/{attachmentId}', 'get'],
      ['/mailchecks/{checkId}/attachments', 'get'],
      ['/checks/{checkId}/mark-as-cleared', 'post'],
    ];
    for (const [path, method] of beyond) {
      const operation = doc.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation.description, `${method} ${path}`).toMatch(/^Beyond the spec/);
      expect(Object.keys(operation.responses)).toContain('422');
    }
    const quickpay = doc.paths['/quickpay/check'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(quickpay.properties).sort()).toEqual(['destination', 'payment_details', 'source']);
    expect(Object.keys(quickpay.properties.payment_details.properties).sort()).toEqual([
      'amount',
      'issueDate',
      'memo',
      'note',
      'referenceID',
    ]);
    const bank =
      doc.paths['/bankAccounts'].post.requestBody.content['application/json'].schema.properties.bankAccounts.items;
    for (const hosted of [
      'bankRoutingNumber',
      'nickName',
      'addressLine1',
      'bankAddress1',
      'bankCity',
      'bankState',
      'bankZip',
    ])
      expect(bank.properties, hosted).toHaveProperty(hosted);
    const print = doc.paths['/checks/print'].post.requestBody.content['application/json'].schema;
    expect(print.properties).toHaveProperty('checkId');
    expect(print.properties).toHaveProperty('paperType');
  });

  it('serves a human docs page', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${BASE}/docs/` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('swagger');
  });
});
