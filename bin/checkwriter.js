#!/usr/bin/env node
// The `checkwriter` command (npm start runs `checkwriter serve`). TypeScript sources run through
// tsx's loader, so nothing needs building after `npm install`.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
