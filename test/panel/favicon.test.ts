// Browsers ask every site for /favicon.ico; the panel answers it (no 404 in the log on each page)
// and names it in every page's head.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

describe.each(dialects())('the tab icon (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  it('is served at /favicon.ico as an SVG with a long cache, and named by the panel pages', async () => {
    const icon = await t.app.inject({ method: 'GET', url: '/favicon.ico' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toContain('image/svg+xml');
    expect(icon.headers['cache-control']).toBe('public, max-age=604800');
    expect(icon.body).toMatch(/^<svg /);
    const page = await t.app.inject({ method: 'GET', url: '/panel/sign-in' });
    expect(page.body).toContain('<link rel="icon" type="image/svg+xml" href="/favicon.ico">');
  });
});
