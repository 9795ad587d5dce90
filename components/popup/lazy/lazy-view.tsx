import type { FunctionComponent, VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/**
 * A component whose code loads on first use (or earlier, with `preload`), outside the popup's
 * first chunk and its 20 KiB budget (design, "Speed"). Until it is there, `fallback` renders,
 * told whether loading failed.
 */
export function lazyView<P extends object>(
  load: () => Promise<FunctionComponent<P>>,
  fallback: (props: P, failed: boolean) => VNode | null,
) {
  let loaded: FunctionComponent<P> | undefined;
  let loading: Promise<FunctionComponent<P>> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (view) => (loaded = view),
      (error: unknown) => {
        loading = undefined; // the next use tries again
        throw error;
      },
    ));
  function Lazy(props: P) {
    const [View, setView] = useState<FunctionComponent<P> | undefined>(() => loaded);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      let live = true;
      if (!View)
        preload().then(
          (view) => live && setView(() => view),
          () => live && setFailed(true),
        );
      return () => {
        live = false;
      };
    }, []);
    return View ? <View {...props} /> : fallback(props, failed);
  }
  return { Lazy, preload };
}
