/**
 * The curtain of the pinned operation column: when the table scrolls sideways and the column's
 * left edge falls inside a data column, the pinned cells extend left (--lt-curtain) to hide that
 * column whole, so none of its values shows cut off. Read from the header cells' layout. In the
 * mobile mode the column is not pinned (lean-table.css): no curtain.
 */
export function drawCurtain(el: HTMLElement): void {
  const pinned = el.querySelector<HTMLElement>('thead .lt-actions-h');
  let cover = 0;
  if (pinned && el.scrollWidth > el.clientWidth + 1 && getComputedStyle(pinned).position === 'sticky') {
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
