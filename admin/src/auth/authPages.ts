/**
 * The components of the sign-in flow's public pages (metadata screens of kind "auth" name them in
 * "component"): outside the layout, reachable without a session, each loaded on demand.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { CompiledScreen } from '../../../codegen/runtime/model.ts';

export const authPages: Record<string, LazyExoticComponent<ComponentType<{ screen: CompiledScreen }>>> = {
  ForgotPassword: lazy(() => import('./ForgotPasswordPage.tsx')),
  ResetPassword: lazy(() => import('./ResetPasswordPage.tsx')),
};
