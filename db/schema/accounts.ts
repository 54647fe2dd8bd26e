/** Tables of the accounts area: users, sessions, magic links, saved courses, claims (migration 0003). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AccountTables {}
