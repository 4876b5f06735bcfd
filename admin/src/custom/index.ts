/**
 * Special components a screen may name in its metadata ("component"). Only what metadata cannot
 * describe lives here; everything else is generated (admin/src/screens/). Each loads lazily.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { CompiledScreen } from '../../../codegen/runtime/model.ts';

export type SpecialComponent = LazyExoticComponent<ComponentType<{ screen: CompiledScreen }>>;

export const customComponents: Record<string, SpecialComponent> = {
  NoticeCentre: lazy(() => import('./NoticeCentre.tsx')),
};
