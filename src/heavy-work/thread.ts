// The module each worker thread of the pool loads (piscina-pool.ts): it loads the named task and
// runs it. It tells the pool when the task starts, after loading it, so the deadline counts the
// task's own work, not the time it waited for a thread or the module's first load.
import type { MessagePort } from 'node:worker_threads';
import { isTaskName, loadTask, type TaskInput, type TaskName } from './tasks/index.ts';

export interface ThreadMessage {
  task: string;
  input: unknown;
  /** Receives one message when the task starts. */
  started: MessagePort;
}

export async function perform(message: ThreadMessage): Promise<unknown> {
  const { task, input, started } = message;
  if (!isTaskName(task)) throw new Error(`no heavy-work task named ${task}`);
  const run = await loadTask(task);
  started.postMessage(true);
  started.close();
  // The input was built for this task by HeavyWork.run, whose signature ties it to the name.
  return run(input as TaskInput<TaskName>);
}
