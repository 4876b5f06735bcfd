/**
 * ra-core's react-router adapter (`ra-core/dist/routing/adapters/reactRouterProvider.js`, MIT)
 * without its own router. react-admin creates a hash router (`createHashRouter` and react-router's
 * `RouterProvider`: the whole data router, about 60 kB of plain script) when it is rendered outside
 * a router; the portal always renders it inside its `BrowserRouter` (App.tsx), so that code never
 * ran but rode in the sign-in page's first script. The build puts this module in the original's
 * place (admin/leanModules.ts); everything else is ra-core's own code, unchanged, and
 * tests/admin/reactRouterAdapter.test.ts checks that both offer the same primitives.
 */
import { createElement, Fragment, useCallback, useContext, useEffect, useRef } from 'react';
import type { RouterProvider, RouterWrapperProps } from 'react-admin';
import {
  Link,
  matchPath,
  Navigate,
  Outlet,
  Route,
  Routes,
  UNSAFE_DataRouterContext,
  UNSAFE_DataRouterStateContext,
  useBlocker,
  useInRouterContext,
  useLocation,
  useMatch,
  useNavigate as useReactRouterNavigate,
  useParams,
} from 'react-router-dom';

/** Blocking needs a data router, which the portal does not use: answers false, as ra-core's does then. */
const useCanBlock = () => {
  const dataRouterContext = useContext(UNSAFE_DataRouterContext);
  const dataRouterStateContext = useContext(UNSAFE_DataRouterStateContext);
  return !!(dataRouterContext && dataRouterStateContext);
};

/** react-router's navigate as one stable function (its own changes on every navigation and re-renders its users). */
const useNavigate = () => {
  const navigate = useReactRouterNavigate();
  const navigateRef = useRef(navigate);
  useEffect(() => {
    navigateRef.current = navigate;
  }, [navigate]);
  return useCallback((...args: Parameters<typeof navigate>) => navigateRef.current(...args), []);
};

/** Outside a router this is a mistake of the app's structure, said at once rather than routed by hash. */
const RouterWrapper = ({ children }: RouterWrapperProps) => {
  if (!useInRouterContext()) throw new Error('react-admin is rendered outside the portal’s BrowserRouter (admin/src/App.tsx)');
  return createElement(Fragment, null, children);
};

export const reactRouterProvider: RouterProvider = {
  useNavigate: useNavigate as RouterProvider['useNavigate'],
  useLocation,
  useParams: useParams as RouterProvider['useParams'],
  useBlocker: useBlocker as RouterProvider['useBlocker'],
  useMatch: useMatch as RouterProvider['useMatch'],
  useInRouterContext,
  useCanBlock,
  Link: Link as RouterProvider['Link'],
  Navigate: Navigate as RouterProvider['Navigate'],
  Route: Route as RouterProvider['Route'],
  Routes: Routes as RouterProvider['Routes'],
  Outlet: Outlet as RouterProvider['Outlet'],
  RouterWrapper,
  matchPath: matchPath as RouterProvider['matchPath'],
};
