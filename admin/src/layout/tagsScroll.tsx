/**
 * Scrolling the tab bar (issue 20 point 8): with many open tabs the bar is wider than the window.
 * The active tab is scrolled into view by moving the bar itself (scrollIntoView also scrolled the
 * page's other scrolling boxes and, at 1440 px, left the 10th tab out of view), and two arrows at
 * the bar's ends scroll it by most of its width, disabled at either end.
 */
import { useEffect, useState, type ReactElement, type ReactNode, type RefObject } from 'react';
import { IconButton } from '@mui/material';

/** Scrolls the bar (only the bar) so the tab is wholly inside it. */
export function scrollTabIntoView(bar: HTMLElement, tab: HTMLElement): void {
  const b = bar.getBoundingClientRect();
  const t = tab.getBoundingClientRect();
  if (t.left < b.left) bar.scrollLeft -= b.left - t.left + 8;
  else if (t.right > b.right) bar.scrollLeft += t.right - b.right + 8;
}

export interface TabBarEnds {
  overflows: boolean;
  atStart: boolean;
  atEnd: boolean;
}

/** Whether the bar overflows and is scrolled to either end; follows scrolling, resizing and the tab count. */
export function useTabBarEnds(bar: RefObject<HTMLElement | null>, tabCount: number): TabBarEnds {
  const [ends, setEnds] = useState<TabBarEnds>({ overflows: false, atStart: true, atEnd: true });
  useEffect(() => {
    const el = bar.current;
    if (!el) return undefined;
    const update = () => {
      const next = { overflows: el.scrollWidth > el.clientWidth + 1, atStart: el.scrollLeft <= 1, atEnd: el.scrollLeft + el.clientWidth >= el.scrollWidth - 1 };
      setEnds((e) => (e.overflows === next.overflows && e.atStart === next.atStart && e.atEnd === next.atEnd ? e : next));
    };
    update();
    el.addEventListener('scroll', update, { passive: true });
    const ro = typeof ResizeObserver !== 'undefined' ? new ResizeObserver(update) : null;
    ro?.observe(el);
    return () => {
      el.removeEventListener('scroll', update);
      ro?.disconnect();
    };
  }, [bar, tabCount]);
  return ends;
}

/** An arrow at one end of the bar: scrolls it by most of its visible width. */
export function TabScrollArrow(props: {
  bar: RefObject<HTMLElement | null>;
  direction: 1 | -1;
  disabled: boolean;
  label: string;
  icon: ReactNode;
}): ReactElement {
  const { bar, direction, disabled, label, icon } = props;
  return (
    <IconButton
      size="small"
      aria-label={label}
      title={label}
      disabled={disabled}
      data-testid={direction < 0 ? 'tags-scroll-left' : 'tags-scroll-right'}
      onClick={() => {
        const el = bar.current;
        el?.scrollBy({ left: direction * Math.max(40, el.clientWidth * 0.8) });
      }}
      sx={{ borderRadius: 0.5, p: 0.25 }}
    >
      {icon}
    </IconButton>
  );
}
