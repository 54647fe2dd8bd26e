/** Tables of the public area: enquiries, analytics events, search index (migration 0002). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface PublicTables {}
