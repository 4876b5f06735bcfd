/**
 * A component in a chunk of its own (React.lazy) that can be fetched ahead: once preload() has
 * resolved, it renders at once, without suspending (React.lazy suspends on its first render even
 * when the module has arrived). Used for the screen kinds and the date pickers (issue 21).
 */
import { lazy, type ComponentType, type ReactElement } from 'react';

export interface Preloadable<P> {
  (props: P): ReactElement;
  /** fetches the chunk; later renders do not suspend */
  preload: () => Promise<ComponentType<P>>;
  /** the component once its chunk has arrived, else undefined (to render without suspending) */
  loaded: () => ComponentType<P> | undefined;
}

export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>): Preloadable<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (c) => (loaded = c),
      (e: unknown) => {
        loading = undefined; // a failed fetch (a lost connection) is tried again next time
        throw e;
      },
    ));
  const Lazy = lazy(() => preload().then((c) => ({ default: c })));
  const Component = (props: P) => {
    const C = (loaded ?? Lazy) as ComponentType<P>;
    return <C {...props} />;
  };
  return Object.assign(Component, { preload, loaded: () => loaded });
}
