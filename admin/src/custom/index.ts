/**
 * Special components a screen may name in its metadata ("component"). Only what metadata cannot
 * describe lives here; everything else is generated (admin/src/screens/). Each loads lazily, and
 * can be fetched ahead (preloadable: a page opened at its screen fetches it with the layout).
 */
import type { CompiledScreen } from '../../../codegen/runtime/model.ts';
import { preloadable, type Preloadable } from '../screens/preloadable.tsx';

export type SpecialComponent = Preloadable<{ screen: CompiledScreen }>;

export const customComponents: Record<string, SpecialComponent> = {
  NoticeCentre: preloadable(() => import('./NoticeCentre.tsx').then((m) => m.default)),
};
