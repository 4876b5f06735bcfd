/**
 * The window of rendered rows: rows have a fixed height (ROW_HEIGHT), so only the rows in the
 * scrolling viewport plus an overscan are in the DOM. The first visible row moves in steps so that
 * scrolling re-renders rarely; the pinned column's curtain is redrawn on every scroll and resize.
 */
import { useLayoutEffect, useState, type RefObject } from 'react';
import { drawCurtain } from './curtain.ts';

/** row height in px (spec 9: grid row height 25); the CSS gives rows exactly this height */
export const ROW_HEIGHT = 25;
/** rows rendered above and below the viewport */
const OVERSCAN = 20;
/** the first visible row moves by this many rows before the window is recomputed */
const STEP = 8;
/** viewport height assumed before the first measurement */
const INITIAL_VIEWPORT = 1000;

/** The rows [start, end) to render out of `rowCount`, following the scroll of `wrap`. */
export function useRowWindow(wrap: RefObject<HTMLDivElement | null>, rowCount: number): { start: number; end: number } {
  // [first visible row, viewport height]; `first` moves in steps so scrolling re-renders rarely
  const [view, setView] = useState({ first: 0, height: INITIAL_VIEWPORT });
  useLayoutEffect(() => {
    const el = wrap.current;
    if (!el) return undefined;
    let frame = 0;
    const measure = () => {
      frame = 0;
      const first = Math.floor(el.scrollTop / ROW_HEIGHT);
      const height = el.clientHeight || INITIAL_VIEWPORT;
      setView((v) => (Math.abs(v.first - first) >= STEP || (first === 0 && v.first !== 0) || Math.abs(v.height - height) > ROW_HEIGHT ? { first, height } : v));
      drawCurtain(el);
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    measure();
    el.addEventListener('scroll', onScroll, { passive: true });
    const ro = typeof ResizeObserver !== 'undefined' ? new ResizeObserver(onScroll) : null;
    ro?.observe(el);
    return () => {
      el.removeEventListener('scroll', onScroll);
      ro?.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [wrap]);
  const start = Math.max(0, Math.min(view.first, rowCount) - OVERSCAN);
  const end = Math.min(rowCount, view.first + Math.ceil(view.height / ROW_HEIGHT) + OVERSCAN + STEP);
  return { start, end };
}
