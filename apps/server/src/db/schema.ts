/**
 * The one database schema, portable across SQLite and PostgreSQL: text ids, integer 0/1 booleans,
 * times as epoch milliseconds (bigint, parsed to number).
 */
export interface MetadataCacheTable {
  key: string;
  value: string;
  expires_at: number;
}

export interface Database {
  metadata_cache: MetadataCacheTable;
}
