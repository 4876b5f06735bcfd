/** A record's history as GET /api/history/<resource>/<id> answers it (server/home/history.ts), read by the admin's RecordHistory. */
export interface HistoryChange {
  field: string;
  label: string;
  before: string | null;
  after: string | null;
}

export interface HistoryEntry {
  at: string;
  userId: string;
  /** the person's name (the user ID when no account has it any more) */
  userName: string;
  /** create, update, delete, action:<name>, upload, overwrite, fileAdded, fileRemoved */
  operation: string;
  operationLabel: string;
  changes: HistoryChange[];
  /** for fileAdded / fileRemoved: the file's name */
  fileName?: string;
}
