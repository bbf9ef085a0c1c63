import { type DatabaseHandle, type DatabaseOptions, openDatabase, pingDatabase } from './client.ts';

/** A database URL as it may be printed: the password is replaced with `***`. */
export function redactDatabaseUrl(url: string): string {
  return url.replace(/^(\w+:\/\/[^:/@]*:)[^@]*@/, '$1***@');
}

/** The first line of an error's message, with any database URL in it redacted. */
function causeOf(error: unknown): string {
  const text = error instanceof Error ? `${(error as { code?: string }).code ?? ''} ${error.message}`.trim() : String(error);
  const first = text.split('\n')[0] ?? text;
  return first.replace(/\w+:\/\/[^\s]+/g, (url) => redactDatabaseUrl(url));
}

/**
 * Opens the database and checks that it answers. While it does not (a container platform may be
 * starting it beside this process), tries again with a growing pause for up to `timeoutSeconds`,
 * printing one line, with the URL's password hidden and no stack trace, when it first fails and
 * when it gives up. Null when it never answered.
 */
export async function connectDatabase(
  url: string,
  options: DatabaseOptions & { timeoutSeconds: number; print: (line: string) => void },
): Promise<DatabaseHandle | null> {
  const deadline = Date.now() + options.timeoutSeconds * 1000;
  const shown = redactDatabaseUrl(url);
  let pause = 500;
  for (let attempt = 1; ; attempt++) {
    let handle: DatabaseHandle | null = null;
    try {
      handle = await openDatabase(url, options);
      await pingDatabase(handle.db);
      return handle;
    } catch (error) {
      await handle?.close().catch(() => undefined);
      const left = Math.ceil((deadline - Date.now()) / 1000);
      if (left <= 0) {
        options.print(`Database unreachable at DATABASE_URL=${shown}: ${causeOf(error)}; gave up after ${attempt} attempt${attempt === 1 ? '' : 's'}.`);
        return null;
      }
      if (attempt === 1) options.print(`Database unreachable at DATABASE_URL=${shown}: ${causeOf(error)}; retrying for ${left} s.`);
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, deadline - Date.now())));
      pause = Math.min(pause * 2, 5000);
    }
  }
}
