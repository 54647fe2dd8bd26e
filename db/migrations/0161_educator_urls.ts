/**
 * URLs an educator sets are refused unless they are http(s) or site-relative (src/domain/urls.ts): the cover and
 * logo, each course image and the course's automatic image, a collection's image, and the profile links (which
 * may also be a bare web address, shown as https). In the database, as the slugs' rule (0160), because the
 * educator admin app writes these tables itself: `javascript:` and other schemes are refused whoever writes.
 *
 * PostgreSQL: CHECK constraints over two immutable functions (a CHECK cannot hold a subquery; the JSON columns
 * are walked inside the functions). SQLite: BEFORE INSERT / BEFORE UPDATE OF triggers that raise, the JSON
 * columns walked with json_each; no regular expressions there, so the rules are spelt with substr and GLOB.
 * Empty text and NULL mean "none" for the scalar columns. Rows written before are checked first: a bad one stops
 * the migration with a message naming it.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { inTransaction } from './0100_checkout_catalogue_versions.ts';

type AnyDb = Kysely<any>;

const MAX = 2048;
/** SQLite: the characters no URL may hold (C0 controls, space, DEL), as a GLOB class; links may hold spaces. */
const CONTROL_GLOB = `'*[' || char(${[...Array.from({ length: 32 }, (_, i) => i + 1), 127].join(', ')}) || ']*'`;
const LINK_CONTROL_GLOB = `'*[' || char(${[...Array.from({ length: 31 }, (_, i) => i + 1), 127].join(', ')}) || ']*'`;

/** SQLite: `v` is an absolute http(s) URL or a site-relative path. */
const sqliteSafeUrl = (v: string) => `(length(${v}) between 1 and ${MAX} and not (${v} glob ${CONTROL_GLOB}) and (
  (lower(substr(${v}, 1, 7)) = 'http://' and substr(${v}, 8, 1) not in ('', '/', '?', '#'))
  or (lower(substr(${v}, 1, 8)) = 'https://' and substr(${v}, 9, 1) not in ('', '/', '?', '#'))
  or (substr(${v}, 1, 1) = '/' and substr(${v}, 2, 1) not in ('/', '\\'))))`;
/** SQLite: `v` is a profile link (a safe URL, or a bare web address without a scheme). */
const sqliteSafeLink = (v: string) => `(${sqliteSafeUrl(v)} or (length(${v}) between 1 and ${MAX} and not (${v} glob ${LINK_CONTROL_GLOB})
  and not (instr(${v}, ':') > 0 and substr(${v}, 1, instr(${v}, ':') - 1) not glob '*[/?#]*')
  and substr(${v}, 1, 2) <> '//' and substr(${v}, 1, 1) <> '\\'))`;

interface Rule {
  table: string;
  column: string;
  /** SQLite: true when the row's value breaks the rule (`R` is new or the table). */
  sqliteBroken: (r: string) => string;
  /** PostgreSQL: the CHECK expression. */
  pgCheck: string;
}

const scalar = (table: string, column: string): Rule => ({
  table, column,
  sqliteBroken: (r) => `(${r}.${column} is not null and ${r}.${column} <> '' and not ${sqliteSafeUrl(`${r}.${column}`)})`,
  pgCheck: `${column} is null or ${column} = '' or marketplace_safe_url(${column})`,
});

export const URL_RULES: Rule[] = [
  scalar('educators', 'cover_url'),
  scalar('educators', 'logo_url'),
  scalar('collections', 'image_url'),
  {
    table: 'courses', column: 'img_urls',
    sqliteBroken: (r) => `exists (select 1 from json_each(${r}.img_urls) j where j.type <> 'text' or not ${sqliteSafeUrl('j.value')})`,
    pgCheck: `marketplace_safe_url_list(img_urls)`,
  },
  {
    table: 'courses', column: 'autoimg',
    sqliteBroken: (r) => `(${r}.autoimg is not null and json_extract(${r}.autoimg, '$.url') is not null and not ${sqliteSafeUrl(`json_extract(${r}.autoimg, '$.url')`)})`,
    pgCheck: `autoimg is null or (autoimg::json ->> 'url') is null or marketplace_safe_url(autoimg::json ->> 'url')`,
  },
  {
    table: 'educators', column: 'links',
    sqliteBroken: (r) => `exists (select 1 from json_each(${r}.links) j where j.value is not null and j.value <> '' and (j.type <> 'text' or not ${sqliteSafeLink('j.value')}))`,
    pgCheck: `marketplace_safe_links(links)`,
  },
];

// Each function keeps the search_path it was created under: pg_dump's restore runs with an empty search_path,
// and a CHECK calling one of them (which calls another) must still find it then.
const PG_FUNCTIONS = String.raw`
create or replace function marketplace_safe_url(v text) returns boolean language sql immutable set search_path from current as $$
  select length(v) between 1 and ${MAX} and v !~ '[\x01-\x20\x7f]' and v ~* '^(https?://[^/?#]|/($|[^/\\]))'
$$;
create or replace function marketplace_safe_link(v text) returns boolean language sql immutable set search_path from current as $$
  select marketplace_safe_url(v) or (length(v) between 1 and ${MAX} and v !~ '[\x01-\x1f\x7f]' and v !~ '^[^/?#]*:' and v !~ '^(//|\\)')
$$;
create or replace function marketplace_safe_url_list(v text) returns boolean language sql immutable set search_path from current as $$
  select coalesce(bool_and(json_typeof(e) = 'string' and marketplace_safe_url(e #>> '{}')), true) from json_array_elements(v::json) e
$$;
create or replace function marketplace_safe_links(v text) returns boolean language sql immutable set search_path from current as $$
  select coalesce(bool_and(j.value is null or j.value = '' or marketplace_safe_link(j.value)), true) from json_each_text(v::json) j
$$;`;

const message = (rule: Rule) => `${rule.table}.${rule.column} must hold only http(s) URLs or paths on this site`;

export function up(db: AnyDb): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return inTransaction(db, async (tx) => {
    if (postgres) for (const statement of PG_FUNCTIONS.split(/;\n(?=create)/)) await sql.raw(statement.trim().replace(/;$/, '')).execute(tx);
    for (const rule of URL_RULES) {
      const bad = postgres
        ? await sql<{ id: string }>`select id from ${sql.table(rule.table)} where not (${sql.raw(rule.pgCheck)}) limit 3`.execute(tx)
        : await sql<{ id: string }>`select id from ${sql.table(rule.table)} where ${sql.raw(rule.sqliteBroken(rule.table))} limit 3`.execute(tx);
      if (bad.rows.length > 0) throw new Error(`${message(rule)}; fix these rows first: ${bad.rows.map((r) => r.id).join(', ')}`);
      const name = `${rule.table}_${rule.column}_safe`;
      if (postgres) {
        await sql.raw(`alter table ${rule.table} add constraint ${name} check (${rule.pgCheck})`).execute(tx);
        continue;
      }
      await sql.raw(`create trigger ${name}_insert before insert on ${rule.table} when ${rule.sqliteBroken('new')}
        begin select raise(abort, '${message(rule)}'); end`).execute(tx);
      await sql.raw(`create trigger ${name}_update before update of ${rule.column} on ${rule.table} when ${rule.sqliteBroken('new')}
        begin select raise(abort, '${message(rule)}'); end`).execute(tx);
    }
  });
}

export function down(db: AnyDb): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return inTransaction(db, async (tx) => {
    for (const rule of URL_RULES) {
      const name = `${rule.table}_${rule.column}_safe`;
      if (postgres) await sql.raw(`alter table ${rule.table} drop constraint if exists ${name}`).execute(tx);
      else {
        await sql.raw(`drop trigger if exists ${name}_insert`).execute(tx);
        await sql.raw(`drop trigger if exists ${name}_update`).execute(tx);
      }
    }
    if (postgres) {
      for (const fn of ['marketplace_safe_links(text)', 'marketplace_safe_url_list(text)', 'marketplace_safe_link(text)', 'marketplace_safe_url(text)']) {
        await sql.raw(`drop function if exists ${fn}`).execute(tx);
      }
    }
  });
}
