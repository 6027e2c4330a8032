// Heavy work on the calling thread: the same task functions, no thread, no cap. For the command
// line (one user, one task) and HEAVY_WORK_THREADS=0, the benchmark's "main thread" baseline.
import type { HeavyWork } from './heavy-work.ts';
import { loadTask, type TaskInput, type TaskName, type TaskOutput } from './tasks/index.ts';

export class InlineHeavyWork implements HeavyWork {
  async run<N extends TaskName>(task: N, input: TaskInput<N>): Promise<TaskOutput<N>> {
    const run = await loadTask(task);
    return run(input);
  }

  async close(): Promise<void> {}
}
