/**
 * The curtain of the pinned operation column: when the table scrolls sideways and the column's
 * left edge falls inside a data column, the pinned cells extend left (--lt-curtain) to hide that
 * column whole, so none of its values shows cut off. Read from the header cells' layout. In the
 * mobile mode the column is not pinned (lean-table.css): no curtain.
 * The pinned column also takes its own width off the scrolling area (scroll-padding-right): a column
 * scrolled into view (a focused link, scrollIntoView, the keyboard) stops at the pinned column's
 * left edge instead of under it (issue 20 point 8: at 1440 px the last columns of a receipt or a
 * settlement were brought "into view" beneath the operation column).
 */
export function drawCurtain(el: HTMLElement): void {
  const pinned = el.querySelector<HTMLElement>('thead .lt-actions-h');
  let cover = 0;
  const sticky = !!pinned && getComputedStyle(pinned).position === 'sticky';
  const padding = sticky ? `${pinned.offsetWidth}px` : '';
  if (el.style.scrollPaddingRight !== padding) el.style.scrollPaddingRight = padding;
  if (pinned && sticky && el.scrollWidth > el.clientWidth + 1) {
    const edge = el.scrollLeft + el.clientWidth - pinned.offsetWidth;
    for (const th of el.querySelectorAll<HTMLElement>('thead th:not(.lt-actions-h)')) {
      const x = th.offsetLeft;
      if (x < edge && edge < x + th.offsetWidth) {
        cover = Math.ceil(edge - x);
        break;
      }
    }
  }
  const value = `${cover}px`;
  if (el.style.getPropertyValue('--lt-curtain') !== value) el.style.setProperty('--lt-curtain', value);
}
