import { writeFileSync } from 'node:fs';
import { it } from 'vitest';
import { startTestApp } from '../support/app.ts';

it('lists routes', async () => {
  const t = await startTestApp('sqlite');
  const tree = t.app.printRoutes({ commonPrefix: false, includeHooks: true });
  writeFileSync(process.env.ROUTES_OUT ?? '/tmp/panelwork/routes.txt', tree);
  await t.close();
});
