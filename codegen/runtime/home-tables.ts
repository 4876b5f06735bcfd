/**
 * The system tables of the home page's capabilities (docs/home-and-notifications.md), created
 * with the other system tables by both dialects (dialect.ts systemTables).
 */
export function homeTables(autoId: string, bigint: string): string[] {
  return [
    // saved views of a list screen, per account (never shared): the filter, sort, column choice and tab, as JSON
    `CREATE TABLE IF NOT EXISTS _saved_views (id ${autoId}, account_id ${bigint} NOT NULL, screen TEXT NOT NULL, name TEXT NOT NULL, state TEXT NOT NULL, is_default ${bigint} NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL)`,
    `CREATE UNIQUE INDEX IF NOT EXISTS ux_saved_views_name ON _saved_views (account_id, screen, name)`,
    // notifications (the header's bell): one row per event and audience (a profile, optionally one supplier and one warehouse), never per account
    `CREATE TABLE IF NOT EXISTS _notifications (id ${autoId}, entity TEXT NOT NULL, record_id ${bigint} NOT NULL, event TEXT NOT NULL, label_key TEXT NOT NULL, title TEXT, path TEXT NOT NULL, profile TEXT NOT NULL, supplier_code TEXT, warehouse TEXT, created_at TEXT NOT NULL, created_by TEXT NOT NULL)`,
    `CREATE INDEX IF NOT EXISTS ix_notifications_audience ON _notifications (profile, id)`,
    // read state per account
    `CREATE TABLE IF NOT EXISTS _notification_reads (account_id ${bigint} NOT NULL, notification_id ${bigint} NOT NULL, PRIMARY KEY (account_id, notification_id))`,
    // the charts' sums per scope and bucket (server/home/chart-sums.ts): writers only ever insert
    // rows (a change's delta: no row any two writers both update), readers add up the rows of their
    // key, and a reader that finds many folds them into one row per bucket
    `CREATE TABLE IF NOT EXISTS _chart_sums (id ${autoId}, chart TEXT NOT NULL, warehouse TEXT NOT NULL, supplier TEXT NOT NULL, bucket TEXT NOT NULL, n ${bigint} NOT NULL, total ${bigint === 'BIGINT' ? 'NUMERIC' : 'REAL'} NOT NULL)`,
    `CREATE INDEX IF NOT EXISTS ix_chart_sums_key ON _chart_sums (chart, warehouse, supplier, bucket, n, total)`,
    // which definition each chart's sums were built for: another one (metadata changed) is built again from the rows
    `CREATE TABLE IF NOT EXISTS _chart_sum_builds (chart TEXT PRIMARY KEY, definition TEXT NOT NULL, built_at TEXT NOT NULL)`,
  ];
}
