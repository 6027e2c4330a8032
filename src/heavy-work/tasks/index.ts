// The tasks heavy work may run, by name (PDF rendering, positive pay files, reading uploaded CSV): each a module of its own with one `run` function, a pure
// function of structured-cloneable input (plain data and byte arrays). The worker thread and the
// inline runner load them from here, on first use (pdfkit and its fonts are not loaded at start-up).
import type * as PositivePayFile from './positive-pay-file.task.ts';
import type * as ReadClearedItems from './read-cleared-items.task.ts';
import type * as ReadImportFile from './read-import-file.task.ts';
import type * as RenderChecksPdf from './render-checks-pdf.task.ts';
import type * as RenderMicrTestPage from './render-micr-test-page.task.ts';

interface TaskModules {
  'render-checks-pdf': typeof RenderChecksPdf;
  'render-micr-test-page': typeof RenderMicrTestPage;
  'positive-pay-file': typeof PositivePayFile;
  'read-import-file': typeof ReadImportFile;
  'read-cleared-items': typeof ReadClearedItems;
}

export type TaskName = keyof TaskModules;
export type TaskInput<N extends TaskName> = Parameters<TaskModules[N]['run']>[0];
export type TaskOutput<N extends TaskName> = Awaited<ReturnType<TaskModules[N]['run']>>;

const TASKS: { readonly [N in TaskName]: () => Promise<TaskModules[N]> } = {
  'render-checks-pdf': () => import('./render-checks-pdf.task.ts'),
  'render-micr-test-page': () => import('./render-micr-test-page.task.ts'),
  'positive-pay-file': () => import('./positive-pay-file.task.ts'),
  'read-import-file': () => import('./read-import-file.task.ts'),
  'read-cleared-items': () => import('./read-cleared-items.task.ts'),
};

export function isTaskName(value: unknown): value is TaskName {
  return typeof value === 'string' && Object.hasOwn(TASKS, value);
}

/** Loads the task's module (once; later calls find it in the module cache). */
export async function loadTask<N extends TaskName>(task: N): Promise<(input: TaskInput<N>) => Promise<TaskOutput<N>>> {
  const module: TaskModules[N] = await TASKS[task]();
  // One signature per name (TaskModules): the compiler cannot follow N through the union by itself.
  return module.run as (input: TaskInput<N>) => Promise<TaskOutput<N>>;
}

/** How a stopped task is described to the client, and what the client can do about it. */
export const TASK_WORDS: { readonly [N in TaskName]: { readonly what: string; readonly advice: string } } = {
  'render-checks-pdf': { what: 'Rendering the PDF', advice: 'print fewer checks at a time' },
  'render-micr-test-page': { what: 'Rendering the MICR test page', advice: 'try again later' },
  'positive-pay-file': { what: 'Writing the positive pay file', advice: 'export a shorter range' },
  'read-import-file': { what: 'Reading the CSV file', advice: 'split it into smaller files' },
  'read-cleared-items': { what: 'Reading the cleared-items file', advice: 'split it into smaller files' },
};
