/**
 * Plays the educator admin app, a separate program that writes the shared catalogue tables directly, for
 * demos and tests of publishing: nothing here calls the publisher, the change feed's triggers hear the
 * writes (db/migrations/0030_page_changes.ts).
 *
 *   npm run catalogue -- set-price <course> <pence>
 *   npm run catalogue -- add-date <course> <iso-datetime>
 *   npm run catalogue -- unpublish <course>
 *   npm run catalogue -- rename-educator <educator-slug> <name>
 *
 * <course> is a course id or `{educatorSlug}/{courseSlug}`. Uses DATABASE_URL or data/marketplace.sqlite.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { DEFAULT_SQLITE_FILE, openDb, type Db } from './client.ts';

const USAGE = `Usage:
  npm run catalogue -- set-price <course> <pence>
  npm run catalogue -- add-date <course> <iso-datetime>
  npm run catalogue -- unpublish <course>
  npm run catalogue -- rename-educator <educator-slug> <name>
<course>: a course id or {educatorSlug}/{courseSlug}`;

const pence = z.coerce.number().int().min(0).max(100_000_000);
const isoDate = z.iso.datetime({ offset: true });
const name = z.string().trim().min(1).max(200);

export type CatalogueCommand =
  | { command: 'set-price'; course: string; pence: number }
  | { command: 'add-date'; course: string; start: number }
  | { command: 'unpublish'; course: string }
  | { command: 'rename-educator'; educator: string; name: string };

/** Parses the command line; throws a message fit for the user. */
export function parseCatalogueCommand(args: string[]): CatalogueCommand {
  const [command, a, b] = args;
  const need = (n: number) => {
    if (args.length !== n + 1) throw new Error(USAGE);
  };
  switch (command) {
    case 'set-price': {
      need(2);
      const parsed = pence.safeParse(b);
      if (!parsed.success) throw new Error(`<pence> must be a whole number of pence, got "${b}"`);
      return { command, course: a!, pence: parsed.data };
    }
    case 'add-date': {
      need(2);
      const parsed = isoDate.safeParse(b);
      if (!parsed.success) throw new Error(`<iso-datetime> must be an ISO date-time with a zone, e.g. 2027-03-01T10:00:00Z, got "${b}"`);
      return { command, course: a!, start: Math.floor(Date.parse(parsed.data) / 1000) };
    }
    case 'unpublish':
      need(1);
      return { command, course: a! };
    case 'rename-educator': {
      need(2);
      const parsed = name.safeParse(b);
      if (!parsed.success) throw new Error('<name> must be 1 to 200 characters');
      return { command, educator: a!, name: parsed.data };
    }
    default:
      throw new Error(USAGE);
  }
}

async function findCourse(db: Db, ref: string) {
  const [educatorSlug, courseSlug] = ref.includes('/') ? ref.split('/', 2) : [null, null];
  const query = db.selectFrom('courses').innerJoin('educators', 'educators.id', 'courses.educator_id')
    .select(['courses.id', 'courses.spaces', 'courses.course_duration', 'courses.delivery_modes', 'courses.address', 'courses.pricing_type', 'courses.minimum_price', 'courses.maximum_price']);
  const row = educatorSlug && courseSlug
    ? await query.where('educators.slug', '=', educatorSlug).where('courses.slug', '=', courseSlug).executeTakeFirst()
    : await query.where('courses.id', '=', ref).executeTakeFirst();
  if (!row) throw new Error(`No course "${ref}"`);
  return row;
}

/** Applies one command in one transaction; returns a line saying what changed. */
export async function runCatalogueCommand(db: Db, cmd: CatalogueCommand): Promise<string> {
  return db.transaction().execute(async (trx) => {
    switch (cmd.command) {
      case 'set-price': {
        const course = await findCourse(trx as unknown as Db, cmd.course);
        const offers = await trx.updateTable('offers').set({ price: cmd.pence }).where('course_id', '=', course.id).executeTakeFirst();
        if (Number(offers.numUpdatedRows) === 0) {
          await trx.insertInto('offers').values({
            id: `ofr_${randomBytes(8).toString('hex')}`, course_id: course.id, occurrence_id: null, position: 0,
            name: 'Standard', description: null, price: cmd.pence, spaces: 1, start_at: null, end_at: null,
          }).execute();
        }
        await trx.updateTable('courses')
          .set({ pricing_type: 'price-offers', minimum_price: null, maximum_price: null })
          .where('id', '=', course.id).execute();
        return `Course ${course.id}: every offer now costs ${cmd.pence} pence`;
      }
      case 'add-date': {
        const course = await findCourse(trx as unknown as Db, cmd.course);
        const minutes = course.course_duration && course.course_duration > 0 ? course.course_duration : 120;
        const modes = course.delivery_modes ?? [];
        const delivery = modes.includes('in-person') ? 'in-person' : modes.includes('online') ? 'online' : 'in-person';
        const id = `occ_${randomBytes(8).toString('hex')}`;
        await trx.insertInto('occurrences').values({
          id, course_id: course.id, visibility: 'public', start_datetime: cmd.start, end_datetime: cmd.start + minutes * 60,
          timezone: 'Europe/London', delivery, address: delivery === 'online' ? null : course.address,
          spaces: course.spaces, available_spaces: course.spaces, parent_ref: null, individually_bookable: true,
        }).execute();
        return `Course ${course.id}: date ${id} added at ${new Date(cmd.start * 1000).toISOString()}`;
      }
      case 'unpublish': {
        const course = await findCourse(trx as unknown as Db, cmd.course);
        await trx.updateTable('courses').set({ published: false }).where('id', '=', course.id).execute();
        return `Course ${course.id}: unpublished`;
      }
      case 'rename-educator': {
        const result = await trx.updateTable('educators').set({ name: cmd.name }).where('slug', '=', cmd.educator).executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) throw new Error(`No educator "${cmd.educator}"`);
        return `Educator ${cmd.educator}: renamed to ${cmd.name}`;
      }
    }
  });
}

const isMain = process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) {
  let cmd: CatalogueCommand;
  try {
    cmd = parseCatalogueCommand(process.argv.slice(2));
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  const db = openDb({ url: process.env.DATABASE_URL || DEFAULT_SQLITE_FILE });
  try {
    console.log(await runCatalogueCommand(db, cmd));
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 1;
  } finally {
    await db.destroy();
  }
}
