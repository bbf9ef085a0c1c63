// The API's OpenAPI document as the server serves it: started on a fresh temporary SQLite database,
// asked for /serve/api/openapi.json, written to a file (`node scripts/api-document.ts out.json`).
import { writeFileSync } from 'node:fs';

/** The document the API plugin serves at /serve/api/openapi.json. */
export async function servedApiDocument(): Promise<Record<string, unknown>> {
  // The document does not depend on the database: SQLite keeps this quick and offline.
  process.env.DATABASE_URL = '';
  const { openTestDatabase } = await import('../server/testing/test-database.ts');
  const { openApiInstance } = await import('../server/testing/api-instance.ts');
  const database = await openTestDatabase();
  const instance = await openApiInstance(database);
  try {
    const response = await instance.app.inject({ method: 'GET', url: '/serve/api/openapi.json' });
    if (response.statusCode !== 200) throw new Error(`openapi.json answered ${response.statusCode}`);
    return response.json() as Record<string, unknown>;
  } finally {
    await instance.close();
    await database.drop();
  }
}

if (import.meta.main) {
  const out = process.argv[2];
  if (!out) throw new Error('usage: node scripts/api-document.ts <file.json>');
  writeFileSync(out, `${JSON.stringify(await servedApiDocument(), null, 2)}\n`);
}
