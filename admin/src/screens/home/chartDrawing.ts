/**
 * The chart drawing's chunk (ChartCanvas.tsx, @mui/x-charts) as a preloadable component: a screen
 * that declares charts fetches it with the rest of its code (screens/index.tsx, preloadScreenCode),
 * so the charts draw without suspending once their numbers arrive.
 */
import { preloadable } from '../preloadable.tsx';

export const ChartCanvas = preloadable(() => import('./ChartCanvas.tsx').then((m) => m.default));
