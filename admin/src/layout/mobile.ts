/**
 * The spec's mobile mode (spec 9): below metadata's breakpoint (app.mobileBreakpointPx, 992 px)
 * the sidebar is a drawer (Layout.tsx) and the tables are compact (LeanTable's `compact`).
 */
import { useMediaQuery } from '@mui/material';
import { metadata } from '../generated/index.ts';

/** below this width the sidebar becomes a drawer (spec 9: 992 px) */
export const MOBILE_QUERY = `(max-width:${metadata.app.mobileBreakpointPx - 0.02}px)`;

/** Is the window below the breakpoint (re-rendered when it crosses it)? */
export const useMobileMode = (): boolean => useMediaQuery(MOBILE_QUERY, { noSsr: true });
