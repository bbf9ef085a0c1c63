import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { freePort } from './free-port.ts';

export interface ApiProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:{port}`, without a path. */
  origin: string;
  /** The signal the process ended by, or null when it exited by itself. */
  exited: Promise<NodeJS.Signals | null>;
  /** Ends the process (SIGTERM) and waits for it. */
  stop(): Promise<void>;
}

/**
 * The API alone in a process of its own (`api-process.ts`, a second Node.js with the TypeScript
 * sources) on a free port, configured by `env` over this process's environment, once it says it
 * listens: for tests that kill a server mid-request or drive it as a studio's tools do.
 */
export async function startApiProcess(env: Record<string, string>): Promise<ApiProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [resolve(import.meta.dirname, 'api-process.ts')], {
    env: { ...process.env, APP_ENV: 'test', LOG_LEVEL: 'silent', PORT: String(port), GAMES_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<NodeJS.Signals | null>((done) => child.once('exit', (_code, signal) => done(signal)));
  await new Promise<void>((ready, fail) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && ready());
    child.once('exit', (code) => fail(new Error(`server exited with ${code}`)));
  });
  return {
    child,
    origin: `http://127.0.0.1:${port}`,
    exited,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
