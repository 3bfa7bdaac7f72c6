// A fresh, migrated database for one test file.
import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { PGLITE_OPTIONS, openPostgres, wrapPglite, type Database } from '../db/client.ts';
import { withDatabase } from './global-setup.ts';

let counter = 0;

export async function createTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const template = inject('pgTemplate');
    const name = `sc_t_${process.ppid}_${process.pid}_${Date.now()}_${counter++}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    await admin.end();
    const database = openPostgres(withDatabase(url, name));
    const close = database.close;
    return {
      ...database,
      close: async () => {
        await close();
        const drop = new pg.Client({ connectionString: url });
        await drop.connect();
        await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await drop.end();
      },
    };
  }
  const snapshot = fs.readFileSync(inject('pgliteSnapshot'));
  const client = await PGlite.create({ ...PGLITE_OPTIONS, loadDataDir: new Blob([snapshot]) });
  return wrapPglite(client);
}
