import { type RefObject, useEffect, useState } from 'react';

/**
 * Controls, and boxes a page marks `data-keep-clear` (issue 40: the top-up's payment method and
 * amount-to-transfer boxes, whose empty inner space the button used to cover half of).
 */
const interactive = 'a, button, input, select, textarea, label, summary, fieldset, [data-keep-clear], [role="button"], [role="link"], [tabindex]:not([tabindex="-1"])';

/** Whether the element under a point is something a floating button must not hide: a control, or text. */
function matters(element: Element): boolean {
  if (element.closest(interactive)) return true;
  for (const node of element.childNodes) if (node.nodeType === Node.TEXT_NODE && node.textContent?.trim()) return true;
  return false;
}

/** Points across the floating element's box (corners inset a little, edges' middles, centre). */
function samplePoints(rect: DOMRect): Array<[number, number]> {
  const xs = [rect.left + 2, rect.left + rect.width / 2, rect.right - 2];
  const ys = [rect.top + 2, rect.top + rect.height / 2, rect.bottom - 2];
  return xs.flatMap((x) => ys.map((y): [number, number] => [x, y]));
}

/** True when any content that matters lies under `floating` (itself excluded). */
export function coversContent(floating: HTMLElement): boolean {
  const rect = floating.getBoundingClientRect();
  if (rect.width === 0 || rect.height === 0) return false;
  return samplePoints(rect).some(([x, y]) => {
    const under = document.elementsFromPoint(x, y).find((element) => !floating.contains(element));
    return under !== undefined && matters(under);
  });
}

/** Content changes arrive in bursts while a page loads: one check once they have settled. */
export const settleMs = 200;

/**
 * Whether a floating element may show: false while it would lie over a control or text of the
 * page (it is hidden then, not moved), and until the first check has run. Re-checked after the next
 * frame on scroll and resize, and once changes of `watch`'s content have settled (`settleMs`) —
 * each check hit-tests nine points, so it must not run on every frame of a page that is still
 * rendering its data. `shown` re-attaches when the element appears. At the
 * bottom of the page the footer keeps empty room for it, so it comes back there.
 */
export function useClearOfContent(floating: RefObject<HTMLElement | null>, watch: () => Element | null, shown: boolean): boolean {
  const [clear, setClear] = useState(false);
  useEffect(() => {
    const element = floating.current;
    if (!element || typeof document.elementsFromPoint !== 'function') return;
    let frame = 0;
    let afterFrame: ReturnType<typeof setTimeout> | undefined;
    let settling: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      frame = 0;
      setClear(!coversContent(element));
    };
    // Checked just after the next frame is painted, when the layout is up to date: hit-testing then
    // costs microseconds. From inside the frame's callback it forced the layout of everything that
    // changed, in the same task — a long task on a phone while the page renders its data.
    const schedule = () => {
      if (frame === 0) frame = window.requestAnimationFrame(() => (afterFrame = setTimeout(check, 0)));
    };
    const settle = () => {
      clearTimeout(settling);
      settling = setTimeout(schedule, settleMs);
    };
    settle();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    const observer = new MutationObserver(settle);
    const target = watch();
    if (target) observer.observe(target, { childList: true, subtree: true, characterData: true, attributes: true });
    return () => {
      window.cancelAnimationFrame(frame);
      clearTimeout(afterFrame);
      clearTimeout(settling);
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      observer.disconnect();
    };
  }, [floating, watch, shown]);
  return clear;
}
