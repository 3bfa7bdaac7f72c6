// The small logger services write to: the Fastify/pino logger fits it; the default writes JSON lines.
import type { Config } from '../config.ts';

type LogFn = (obj: Record<string, unknown>, msg: string) => void;
export type ServiceLogger = { info: LogFn; warn: LogFn; error: LogFn };

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity } as const;

export function createConsoleLogger(level: Config['LOG_LEVEL']): ServiceLogger {
  const min = LEVELS[level];
  const write =
    (lvl: keyof typeof LEVELS, stream: NodeJS.WriteStream): LogFn =>
    (obj, msg) => {
      if (LEVELS[lvl] < min) return;
      stream.write(`${JSON.stringify({ level: LEVELS[lvl], time: Date.now(), ...obj, msg })}\n`);
    };
  return {
    info: write('info', process.stdout),
    warn: write('warn', process.stderr),
    error: write('error', process.stderr),
  };
}
