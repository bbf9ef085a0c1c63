// Once per run of the fault tests: a private PostgreSQL cluster, and the demo content imported
// once into a SQLite file and a PostgreSQL template database that each test copies.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createPostgres, killServers, PORT_BASE, startServer, TEMPLATE_DATABASE } from './support.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    faults: { postgresDir: string; postgresPort: number; sqliteTemplate: string };
  }
}

export default async function setup(project: TestProject) {
  const folder = mkdtempSync(join(tmpdir(), 'playport-faults-'));
  const postgres = createPostgres();
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  await admin.end();
  const sqliteTemplate = join(folder, 'template.sqlite');
  // Each server imports the demo content into its empty database before it listens.
  const servers = await Promise.all([
    startServer({ DATABASE_URL: `file:${sqliteTemplate}` }, PORT_BASE + 40),
    startServer({ DATABASE_URL: postgres.url.replace(/\/postgres$/, `/${TEMPLATE_DATABASE}`) }, PORT_BASE + 41),
  ]);
  await Promise.all(servers.map((server) => server.stop()));
  await killServers();
  project.provide('faults', { postgresDir: postgres.dir, postgresPort: postgres.port, sqliteTemplate });
  return () => {
    postgres.remove();
    rmSync(folder, { recursive: true, force: true });
  };
}
