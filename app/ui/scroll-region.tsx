import { type ComponentProps, type RefObject, useEffect, useRef, useState } from 'react';
import { cn } from './cn.ts';
import { focusRing } from './focus.ts';

/**
 * A box that may scroll (a wide table on a phone, a growing log). While its content overflows it is
 * a named region the keyboard can reach and scroll (axe scrollable-region-focusable, decision 121);
 * when everything fits it is no extra tab stop.
 */
export function ScrollRegion({ label, className, children, ...rest }: Omit<ComponentProps<'section'>, 'aria-label' | 'tabIndex'> & { label: string }) {
  const box = useRef<HTMLElement>(null);
  const overflows = useOverflow(box);
  return (
    // A named <section> is a region landmark.
    <section
      ref={box}
      aria-label={label}
      // oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling box must take focus for the keyboard to scroll it (WCAG 2.1.1)
      tabIndex={overflows ? 0 : undefined}
      className={cn(focusRing, className)}
      {...rest}
    >
      {children}
    </section>
  );
}

/** Whether the element's content is larger than its box, followed as either changes size. */
export function useOverflow(box: RefObject<HTMLElement | null>): boolean {
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setOverflows(element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    for (const child of element.children) observer.observe(child);
    // New rows (a log's lines) change the content without resizing the box's first child.
    const mutations = new MutationObserver(() => {
      measure();
      for (const child of element.children) observer.observe(child);
    });
    mutations.observe(element, { childList: true, subtree: true });
    return () => {
      observer.disconnect();
      mutations.disconnect();
    };
  }, [box]);
  return overflows;
}
