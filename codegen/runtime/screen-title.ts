/**
 * The title of a screen for the account that opens it: one screen may serve two jobs (the
 * supplier's input and the staff's audit of the same record), each under its own name
 * (metadata `titleKeyFor`, by profile). The page heading, the tab, the breadcrumb and the browser
 * title all ask here, and so do the browser tests.
 */
import type { CompiledScreen, Profile } from './model.ts';

export function screenTitleKey(screen: Pick<CompiledScreen, 'titleKey' | 'titleKeyFor'>, profile: Profile | string | null | undefined): string {
  return (profile && screen.titleKeyFor?.[profile as Profile]) || screen.titleKey;
}
