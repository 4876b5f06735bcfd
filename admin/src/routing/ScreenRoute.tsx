/**
 * One metadata screen inside the layout: the role / claim-warehouse check (to /401), the document
 * title, the visited-tab entry, then the screens' generic renderer, loaded on demand.
 */
import { Suspense, useEffect, useLayoutEffect } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { Loading } from 'react-admin';
import type { CompiledScreen } from '../../../codegen/runtime/model.ts';
import { screenTitleKey } from '../../../codegen/runtime/screen-title.ts';
import { metadata } from '../generated/index.ts';
import { useMetadataVersion } from '../providers/metadataSwap.ts';
import { devLoopTrace } from '../providers/devLoopTrace.ts';
import { screenAllowed, screenRefusalOf } from '../providers/permissions.ts';
import { useUser } from '../providers/hooks.ts';
import { addTab, tagsStore } from '../layout/tagsStore.ts';
import { UNAUTHORIZED_PATH } from './routeTable.ts';
import { useDocumentTitle } from './useDocumentTitle.ts';
import { ClaimWarehouseOnly } from './ClaimWarehouseOnly.tsx';
import { preloadable } from '../screens/preloadable.tsx';

// the screens are a separate chunk: the shell (login, layout) loads without them
const loadScreens = () => import('../screens');
const ScreenPage = preloadable(() => loadScreens().then((m) => m.ScreenPage));

/** Fetches what rendering `screen` needs (the screens' entry, its kind's or special component's chunk) ahead of its route. */
export const preloadScreen = (screen: CompiledScreen): Promise<unknown> =>
  Promise.all([ScreenPage.preload(), loadScreens().then((m) => m.preloadScreenCode(screen))]);

export function ScreenRoute({ screen: atLoad }: { screen: CompiledScreen }) {
  // the definition is read at render time: `npm run dev` swaps it in place (providers/metadataSwap.ts)
  const version = useMetadataVersion();
  useLayoutEffect(() => {
    if (version) devLoopTrace('screen committed');
  }, [version]);
  const screen = metadata.screens.find((s) => s.name === atLoad.name) ?? atLoad;
  const user = useUser();
  const location = useLocation();
  const allowed = screenAllowed(screen, user);
  const titleKey = screenTitleKey(screen, user?.profile);
  useDocumentTitle(allowed ? titleKey : undefined);

  useEffect(() => {
    if (!allowed) return;
    tagsStore.set(addTab(tagsStore.get(), { path: location.pathname, fullPath: location.pathname + location.search, titleKey, pinned: screen.pinned }));
  }, [allowed, location.pathname, location.search, titleKey, screen.pinned]);

  // a claim screen at a non-claim warehouse says so and offers the switch (not a bare 401)
  if (!allowed && screenRefusalOf(screen, user) === 'error.notClaimWarehouse') return <ClaimWarehouseOnly />;
  if (!allowed) return <Navigate to={UNAUTHORIZED_PATH} replace />;
  return (
    <Suspense fallback={<Loading />}>
      <ScreenPage screen={screen} />
    </Suspense>
  );
}
