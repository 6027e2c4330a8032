// A child process for log-buffer.test.ts: it builds its logger as the server does (log-stream.ts:
// the buffered standard output), writes 200 lines in one go, then ends the way argv[2] says. The
// test reads its standard output through a pipe.
import pino from 'pino';
import { logDestination } from '../../../src/log-stream.ts';

const LINES = 200;

const log = pino({ level: 'info' }, await logDestination('json'));
for (let i = 0; i < LINES; i++) log.info({ reqId: `req-${i}`, responseTime: 1.5 }, 'request completed');

switch (process.argv[2]) {
  case 'exit':
    process.exit(3);
    break;
  case 'uncaught':
    setImmediate(() => {
      throw new Error('boom');
    });
    break;
  case 'fatal-then-kill':
    // A fatal line and then a death no handler sees: only pino's flush after a fatal line saves it.
    log.fatal('last words');
    process.kill(process.pid, 'SIGKILL');
    break;
  case 'kill':
    // No fatal line: what is still buffered is lost (the test shows the buffer is real).
    process.kill(process.pid, 'SIGKILL');
    break;
  default:
    // The event loop empties and the process ends by itself.
    break;
}
