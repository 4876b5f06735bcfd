/**
 * Where a metadata edit's time goes in the page (`npm run dev` only): each stage of a swap is a
 * performance mark and a console line `[dev-loop] <stage>`, which the dev-loop bench
 * (tests/bench/dev-loop.ts) times against the save. The swaps' commits are traced where they
 * render (App: the texts; ScreenRoute: the screen). A built page logs nothing.
 */
export function devLoopTrace(stage: string): void {
  if (!import.meta.hot) return;
  performance.mark(`dev-loop: ${stage}`);
  console.debug(`[dev-loop] ${stage}`);
}
