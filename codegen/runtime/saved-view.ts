/** A saved view of a list screen, as the server keeps it and the admin applies it (server/home/saved-views.ts). */
export interface ViewState {
  /** the list's search: the screen's filter keys (field, field_like, field_gte, field_lte, includeDeleted) */
  filter: Record<string, unknown>;
  sort?: { field: string; order: 'ASC' | 'DESC' };
  /** the visible columns, in the screen's order (absent: all) */
  columns?: string[];
  tab?: string;
}

export interface SavedView {
  id: number;
  screen: string;
  name: string;
  state: ViewState;
  isDefault: boolean;
  updatedAt: string;
}
