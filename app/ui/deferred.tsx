import { cloneElement, type ComponentType, lazy, type ReactElement, type SyntheticEvent, Suspense, useState } from 'react';

/** What a deferred widget is given: whether it is open, and the trigger the page already shows. */
export interface DeferredWidgetProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The trigger as the page renders it; the widget wraps it in its own trigger. */
  trigger: ReactElement<TriggerHandlers>;
}

interface TriggerHandlers {
  onPointerEnter?: (event: SyntheticEvent) => void;
  onFocus?: (event: SyntheticEvent) => void;
  onTouchStart?: (event: SyntheticEvent) => void;
  onClick?: (event: SyntheticEvent) => void;
}

/**
 * A menu, drawer or dialog whose code loads when the visitor reaches for it, not with the page
 * (decision 066): until then the page renders only its trigger. Hovering, focusing or touching the
 * trigger starts the download; pressing it mounts the widget open around the same trigger, which
 * then behaves as the widget's own (focus returns to it on close). `preload` starts it by hand.
 */
export function deferred<P extends DeferredWidgetProps>(load: () => Promise<ComponentType<P>>) {
  const { Component: Widget, preload } = onDemand(load);

  function Deferred(props: P) {
    const [wanted, setWanted] = useState(false);
    const own = props.trigger.props;
    const standIn = cloneElement(props.trigger, {
      onPointerEnter: (event: SyntheticEvent) => {
        void preload();
        own.onPointerEnter?.(event);
      },
      onFocus: (event: SyntheticEvent) => {
        void preload();
        own.onFocus?.(event);
      },
      onTouchStart: (event: SyntheticEvent) => {
        void preload();
        own.onTouchStart?.(event);
      },
      onClick: (event: SyntheticEvent) => {
        setWanted(true);
        props.onOpenChange(true);
        own.onClick?.(event);
      },
    });
    if (!wanted && !props.open) return standIn;
    return (
      <Suspense fallback={standIn}>
        <Widget {...props} />
      </Suspense>
    );
  }
  return Object.assign(Deferred, { preload: () => void preload() });
}

/**
 * A component whose code is loaded on demand. Once loaded (by `preload` or a first render) it
 * renders at once; React.lazy alone would suspend on its first render even then, and React holds
 * a revealed boundary back for up to 300 ms, so a menu opened after its code was preloaded would
 * still open late.
 */
export function onDemand<P extends object>(load: () => Promise<ComponentType<P>>): { Component: ComponentType<P>; preload: () => Promise<unknown> } {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const attempt = () =>
    (loading ??= load()
      .then((component) => {
        // A failed chunk may resolve to nothing when the page handles the preload error itself.
        if (!component) throw new Error('The component did not load');
        loaded = component;
        return { default: component };
      })
      .catch((error: unknown) => {
        loading = null;
        throw error;
      }));
  // A failed preload (offline, a new build) is not an error of the page: the next use tries again.
  const preload = () => attempt().catch(() => undefined);
  const Lazy = lazy(attempt);
  function Component(props: P) {
    const Loaded = loaded;
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  }
  return { Component, preload };
}
