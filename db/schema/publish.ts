/** The change feed of the public pages (migration 0030), filled by triggers, drained by the publisher. */
import type { Generated } from 'kysely';
import type { WithDefault } from './columns.ts';

export interface PageChangesTable {
  id: Generated<number>;
  educator_id: string | null;
  /** The educator's slug when the row was written (a removed educator leaves no other trace of it). */
  educator_slug: string | null;
  course_id: string | null;
  category_id: string | null;
  created_at: number;
  /** The publisher that holds the row, and until when (epoch seconds); null: free. */
  claimed_by: string | null;
  claimed_until: number | null;
  attempts: WithDefault<number>;
}

/** When each educator's pages last changed (epoch seconds), for sitemap lastmod; kept by the feed's triggers. */
export interface EducatorLastmodTable {
  educator_id: string;
  modified_at: number;
}

/** A digest of each category carousel's cards as last written (migration 0031). */
export interface PublishedCarouselsTable {
  category_id: string;
  digest: string;
}

export interface PublishTables {
  published_carousels: PublishedCarouselsTable;
  page_changes: PageChangesTable;
  educator_lastmod: EducatorLastmodTable;
}
