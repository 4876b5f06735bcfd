/**
 * The work tiles of a dashboard (metadata: the screen's "tiles"): the counts come from
 * GET /api/home/tiles, which answers only the tiles the caller may open, each counted in its scope
 * exactly as the list it opens would count. A click opens that list with the tile's tab and search
 * applied (written to the list's stored search, so the filter bar shows it and Reset clears it).
 */
import type { ReactElement } from 'react';
import { Box, ButtonBase, Paper, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useStoreContext, useTranslate } from 'react-admin';
import type { CompiledScreen } from '../../../../codegen/runtime/model.ts';
import type { TileCount } from '../../../../codegen/runtime/tiles.ts';
import { loadTiles } from './homeData.ts';

// the count is text: the warning colour is a darker orange than MUI's warning.dark (#e65100, 3.8:1 on
// white), so that it meets WCAG AA's 4.5:1 (axe in the generated browser suite)
const COLOR = { info: 'text.primary', warning: '#bf4800', error: 'error.main' } as const;

export function HomeTiles({ screen }: { screen: CompiledScreen }): ReactElement | null {
  const translate = useTranslate();
  const navigate = useNavigate();
  const store = useStoreContext();
  const { data, isError } = useQuery({
    queryKey: ['homeTiles', screen.name],
    queryFn: () => loadTiles(screen.name),
    refetchOnWindowFocus: true,
    retry: false,
  });
  if (!screen.tiles?.length) return null;
  if (isError)
    return (
      <Typography color="error" variant="body2" sx={{ mb: 1 }} data-testid="home-tiles-failed">
        {translate('home.tilesFailed')}
      </Typography>
    );
  if (!data?.length) return null;
  const open = (t: TileCount) => {
    store.setItem(`screens.${t.screen}.filter`, t.search);
    // the list opens on its first page in its declared sort (react-admin keeps a list's parameters under <storeKey>.listParams)
    store.removeItem(`screens.${t.screen}.list.listParams`);
    if (t.tab) store.setItem(`screens.${t.screen}.tab`, t.tab);
    navigate(t.path);
  };
  return (
    <Box component="section" aria-label={translate('home.tilesTitle')} sx={{ mb: 2 }} data-testid="home-tiles">
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        {translate('home.tilesTitle')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: 'repeat(auto-fill, minmax(190px, 1fr))' }}>
        {data.map((t) => {
          const label = translate(t.labelKey);
          const count = t.more ? translate('home.moreThan', { count: t.count }) : String(t.count);
          return (
            <Paper key={t.key} variant="outlined" sx={{ borderLeft: 4, borderLeftColor: t.severity === 'info' ? 'divider' : COLOR[t.severity] }}>
              <ButtonBase
                onClick={() => open(t)}
                title={translate('home.tileOpens', { label })}
                sx={{ display: 'block', width: '100%', textAlign: 'left', p: 1.5 }}
                data-testid={`tile-${t.key}`}
                data-severity={t.severity}
              >
                <Typography
                  variant="h5"
                  component="span"
                  sx={{ display: 'block', fontWeight: 600, color: COLOR[t.severity] }}
                  data-testid={`tile-count-${t.key}`}
                >
                  {count}
                </Typography>
                <Typography variant="body2" component="span" sx={{ display: 'block' }}>
                  {label}
                </Typography>
              </ButtonBase>
            </Paper>
          );
        })}
      </Box>
    </Box>
  );
}
