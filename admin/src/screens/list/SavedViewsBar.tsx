/**
 * The saved views of a list, in its toolbar: pick one (its search, sort, columns and tab apply),
 * save the current state under a name (optionally as the default the list opens with), rename,
 * make default, delete; and the column choice the views keep. Views live on the server per
 * account (savedViewsApi.ts). The list's Reset still returns to the screen's declared defaults.
 */
import { useEffect, useState, type ReactElement } from 'react';
import {
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  ListItemText,
  Menu,
  MenuItem,
  TextField,
} from '@mui/material';
import { Confirm, useNotify, useTranslate } from 'react-admin';
import type { CompiledScreen } from '../../../../codegen/runtime/model.ts';
import { useNotifyError } from '../errors.ts';
import { useSavedViews, type SavedView, type ViewState } from './savedViewsApi.ts';

export interface SavedViewsBarProps {
  screen: CompiledScreen;
  /** the list's state as a view would keep it */
  current: () => ViewState;
  apply: (state: ViewState) => void;
  /** the visible columns (undefined: all of the screen's) */
  columns: string[] | undefined;
  setColumns: (c: string[] | undefined) => void;
}

/** Screens whose default view was applied in this page: a default applies once, when the list first opens. */
const defaultApplied = new Set<string>();

export function SavedViewsBar({ screen, current, apply, columns, setColumns }: SavedViewsBarProps): ReactElement {
  const translate = useTranslate();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const { views, loaded, create, update, remove } = useSavedViews(screen.name);
  const [selected, setSelected] = useState<number | null>(null);
  const [menu, setMenu] = useState<null | 'views' | 'columns'>(null);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [naming, setNaming] = useState<null | { mode: 'save' | 'rename'; name: string; isDefault: boolean }>(null);
  const [deleting, setDeleting] = useState(false);
  const chosen = views.find((v) => v.id === selected);

  useEffect(() => {
    if (!loaded || defaultApplied.has(screen.name)) return;
    defaultApplied.add(screen.name);
    const d = views.find((v) => v.isDefault);
    if (d) {
      setSelected(d.id);
      apply(d.state);
    }
  }, [loaded, views, screen.name, apply]);

  const open = (which: 'views' | 'columns') => (e: React.MouseEvent<HTMLElement>) => {
    setAnchor(e.currentTarget);
    setMenu(which);
  };
  const choose = (v: SavedView) => {
    setSelected(v.id);
    setMenu(null);
    apply(v.state);
  };
  const run = async (p: Promise<unknown>, okKey: string) => {
    try {
      await p;
      notify(okKey, { type: 'info' });
      return true;
    } catch (e) {
      notifyError(e);
      return false;
    }
  };
  const submitName = async () => {
    if (!naming) return;
    const ok =
      naming.mode === 'save'
        ? await run(
            create(naming.name, current(), naming.isDefault).then((v) => v && setSelected(v.id)),
            'views.saved',
          )
        : await run(update(chosen!.id, { name: naming.name }), 'views.saved');
    if (ok) setNaming(null);
  };
  const all = screen.columns.map((c) => c.field);
  const visible = new Set(columns ?? all);
  const toggleColumn = (f: string) => {
    const next = all.filter((x) => (x === f ? !visible.has(x) : visible.has(x)));
    if (next.length) setColumns(next.length === all.length ? undefined : next);
  };

  return (
    <Box sx={{ display: 'flex', gap: 0.5, alignItems: 'center', flexWrap: 'wrap' }} data-testid="saved-views">
      <Button size="small" variant="outlined" onClick={open('views')} data-testid="views-menu" aria-haspopup="menu">
        {chosen ? `${translate('views.view')}: ${chosen.name}` : translate('views.views')}
      </Button>
      <Button size="small" onClick={() => setNaming({ mode: 'save', name: '', isDefault: false })} data-testid="views-save">
        {translate('views.save')}
      </Button>
      {chosen && (
        <>
          <Button size="small" onClick={() => void run(update(chosen.id, { state: current() }), 'views.saved')} data-testid="views-overwrite">
            {translate('views.overwrite')}
          </Button>
          <Button size="small" onClick={() => setNaming({ mode: 'rename', name: chosen.name, isDefault: chosen.isDefault })} data-testid="views-rename">
            {translate('views.rename')}
          </Button>
          <Button size="small" onClick={() => void run(update(chosen.id, { isDefault: !chosen.isDefault }), 'views.saved')} data-testid="views-default">
            {translate(chosen.isDefault ? 'views.undefault' : 'views.makeDefault')}
          </Button>
          <Button size="small" color="error" onClick={() => setDeleting(true)} data-testid="views-delete">
            {translate('views.delete')}
          </Button>
        </>
      )}
      <Button size="small" onClick={open('columns')} data-testid="columns-menu" aria-haspopup="menu">
        {translate('views.columns')}
      </Button>
      <Menu anchorEl={anchor} open={menu === 'views'} onClose={() => setMenu(null)}>
        {views.length === 0 && <MenuItem disabled>{translate('views.none')}</MenuItem>}
        {views.map((v) => (
          <MenuItem key={v.id} selected={v.id === selected} onClick={() => choose(v)} data-testid="views-item" data-name={v.name}>
            <ListItemText primary={v.name} secondary={v.isDefault ? translate('views.default') : undefined} />
          </MenuItem>
        ))}
      </Menu>
      <Menu anchorEl={anchor} open={menu === 'columns'} onClose={() => setMenu(null)}>
        {screen.columns.map((c) => (
          <MenuItem key={c.field} onClick={() => toggleColumn(c.field)} dense data-testid={`column-toggle-${c.field}`}>
            <Checkbox size="small" checked={visible.has(c.field)} tabIndex={-1} inputProps={{ 'aria-label': translate(c.labelKey) }} />
            <ListItemText primary={translate(c.labelKey)} />
          </MenuItem>
        ))}
      </Menu>
      {naming && (
        <Dialog open onClose={() => setNaming(null)} data-testid="views-name-dialog">
          <DialogTitle>{translate(naming.mode === 'save' ? 'views.save' : 'views.rename')}</DialogTitle>
          <DialogContent>
            <TextField
              autoFocus
              fullWidth
              size="small"
              margin="dense"
              label={translate('views.name')}
              value={naming.name}
              slotProps={{ htmlInput: { maxLength: 50, 'data-testid': 'views-name' } }}
              onChange={(e) => setNaming({ ...naming, name: e.target.value })}
              onKeyDown={(e) => e.key === 'Enter' && naming.name.trim() && void submitName()}
            />
            {naming.mode === 'save' && (
              <FormControlLabel
                control={
                  <Checkbox checked={naming.isDefault} onChange={(e) => setNaming({ ...naming, isDefault: e.target.checked })} data-testid="views-as-default" />
                }
                label={translate('views.makeDefault')}
              />
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setNaming(null)}>{translate('ui.cancel')}</Button>
            <Button variant="contained" disabled={!naming.name.trim()} onClick={() => void submitName()} data-testid="views-name-ok">
              {translate('ui.confirm')}
            </Button>
          </DialogActions>
        </Dialog>
      )}
      <Confirm
        isOpen={deleting}
        title={translate('views.delete')}
        content={translate('views.deleteConfirm', { name: chosen?.name ?? '' })}
        onConfirm={() => {
          setDeleting(false);
          if (chosen) void run(remove(chosen.id), 'views.deleted').then((ok) => ok && setSelected(null));
        }}
        onClose={() => setDeleting(false)}
      />
    </Box>
  );
}
