/**
 * The page-side probe of the UI step, injected into every page before its own scripts
 * (page.addInitScript). It is a plain script string, not a function: tsx compiles functions with
 * helpers (keepNames) that do not exist in the page.
 *
 * When the list is on screen (a MutationObserver sees `root` holding at least `minRows` elements
 * matching `rows`; observers run right after React's commit, before the next frame) it records:
 *   commitAt    the DOM holds the rows (React committed them);
 *   frameAt     the end of the main thread's work for the next frame: a message posted from the
 *               frame's requestAnimationFrame callback runs after that frame's style, layout and
 *               paint (the rAF + postMessage technique);
 *   elementAt   the Element Timing entry of a marker text the probe adds in the same frame as the
 *               rows: the browser's own paint time of that frame (renderTime; paintTime and
 *               presentationTime where Chromium reports them);
 *   settledAt   the frameAt of the last change inside `root` after that (LeanTable re-windows once
 *               its viewport is measured), once nothing has changed for `quietMs`;
 * and every long task and long animation frame (LoAF: its script, style and layout split) of the
 * page. window.__uiProbeArm(label) starts over for an in-page navigation (performance.mark(label)).
 */
export interface ProbeConfig {
  /** CSS selector of the list's root element */
  root: string;
  /** CSS selector of a rendered row inside root */
  rows: string;
  minRows: number;
  quietMs: number;
}

export interface ProbeState {
  armedAt: number;
  commitAt: number | null;
  frameAt: number | null;
  elementAt: number | null;
  elementPaintAt: number | null;
  elementPresentationAt: number | null;
  settledAt: number | null;
  lastChangeAt: number | null;
  changes: number;
  rows: number;
  longTasks: [number, number][];
  loafs: { start: number; duration: number; renderStart: number; styleAndLayoutStart: number; blocking: number }[];
}

export function probeScript(cfg: ProbeConfig): string {
  return `(() => {
  const CFG = ${JSON.stringify(cfg)};
  let arm = 0;
  const fresh = () => ({ armedAt: performance.now(), commitAt: null, frameAt: null, elementAt: null, elementPaintAt: null, elementPresentationAt: null, settledAt: null, lastChangeAt: null, changes: 0, rows: 0, longTasks: [], loafs: [] });
  let st = fresh();
  let rootObserver = null;
  const keep = { longTasks: [], loafs: [] };
  Object.defineProperty(window, '__uiProbe', { get: () => ({ ...st, longTasks: keep.longTasks, loafs: keep.loafs }), configurable: true });
  const afterFrame = (cb) => requestAnimationFrame(() => { const ch = new MessageChannel(); ch.port1.onmessage = () => cb(performance.now()); ch.port2.postMessage(0); });
  const isProbe = (n) => n && n.nodeType === 1 && n.hasAttribute && n.hasAttribute('data-ui-probe');
  const onRootChange = (records) => {
    if (records.every((r) => isProbe(r.target))) return;
    const s = st, t = performance.now();
    s.lastChangeAt = t; s.changes++;
    afterFrame((p) => { if (s.lastChangeAt === t) s.settledAt = p; });
  };
  const check = () => {
    const s = st;
    if (s.commitAt !== null) return;
    const root = document.querySelector(CFG.root);
    if (!root) return;
    const rows = root.querySelectorAll(CFG.rows).length;
    if (rows < CFG.minRows) return;
    const t = performance.now();
    s.commitAt = t; s.lastChangeAt = t; s.rows = rows;
    const id = 'ui-rows-' + (++arm);
    const m = document.createElement('div');
    m.setAttribute('data-ui-probe', '');
    m.setAttribute('elementtiming', id);
    m.textContent = 'rows';
    m.style.cssText = 'position:fixed;right:2px;bottom:2px;font:9px monospace;color:#aaa;z-index:2147483647;pointer-events:none';
    document.querySelectorAll('[data-ui-probe]').forEach((n) => n.remove());
    document.body.appendChild(m);
    s.elementId = id;
    afterFrame((p) => { s.frameAt = p; if (s.lastChangeAt === t) s.settledAt = p; });
    if (rootObserver) rootObserver.disconnect();
    rootObserver = new MutationObserver(onRootChange);
    rootObserver.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-row-count'] });
  const observe = (type, f) => { try { new PerformanceObserver((l) => l.getEntries().forEach(f)).observe({ type, buffered: true }); } catch (e) { /* not supported */ } };
  observe('element', (e) => {
    const s = st;
    if (e.identifier !== s.elementId) return;
    s.elementAt = e.renderTime || e.loadTime;
    if (typeof e.paintTime === 'number') s.elementPaintAt = e.paintTime;
    if (typeof e.presentationTime === 'number') s.elementPresentationAt = e.presentationTime;
  });
  observe('longtask', (e) => keep.longTasks.push([e.startTime, e.duration]));
  observe('long-animation-frame', (e) => keep.loafs.push({ start: e.startTime, duration: e.duration, renderStart: e.renderStart, styleAndLayoutStart: e.styleAndLayoutStart, blocking: e.blockingDuration }));
  window.__uiProbeArm = (label) => { if (rootObserver) rootObserver.disconnect(); rootObserver = null; st = fresh(); performance.mark(label); return st.armedAt; };
})();`;
}
