// A tap on a header control before the control can take it: the signed-in pages are painted from
// pre-rendered markup, inert under the session check, long before their code has arrived and run
// (seconds on a cheap phone). Inert markup lets the tap fall through to the page, so it would be lost.
// The pre-rendered page's inline script (web/prerender.ts, recordFirstTapScript) notes which marked
// control was under such a tap on <html>; the control, once live, takes the note and acts on it once.
import { type RefObject, useEffect, useRef } from 'react';

/** Marks a control (its value names it) whose tap is kept while it cannot take it. */
export const FIRST_TAP_ATTRIBUTE = 'data-first-tap';
/** On <html>: "<name> <Date.now()>" of the last tap kept. */
export const PENDING_TAP_ATTRIBUTE = 'data-pending-tap';
/** A tap older than this is not acted on: the person has moved on (or the session check sent them to sign in). */
export const PENDING_TAP_MAX_AGE_MS = 20_000;

/**
 * The inline script's listener, as source (ES5: it runs before any of the SPA's code). A click whose
 * point lies on a marked control that is inert is kept; a live control takes its own taps.
 */
export const recordFirstTapScript = () =>
  `document.addEventListener("click",function(e){var marked=document.querySelectorAll("[${FIRST_TAP_ATTRIBUTE}]");` +
  `for(var i=0;i<marked.length;i++){var c=marked[i],r=c.getBoundingClientRect();` +
  `if(c.closest("[inert]")&&e.clientX>=r.left&&e.clientX<=r.right&&e.clientY>=r.top&&e.clientY<=r.bottom)` +
  `document.documentElement.setAttribute("${PENDING_TAP_ATTRIBUTE}",c.getAttribute("${FIRST_TAP_ATTRIBUTE}")+" "+Date.now())}},true)`;

/** Whether a recent kept tap was on the control `name`; the note is removed either way once it is theirs. */
export function takePendingTap(name: string, now = Date.now()): boolean {
  const [tapped, at] = (document.documentElement.getAttribute(PENDING_TAP_ATTRIBUTE) ?? '').split(' ');
  if (tapped !== name) return false;
  document.documentElement.removeAttribute(PENDING_TAP_ATTRIBUTE);
  return now - Number(at) <= PENDING_TAP_MAX_AGE_MS;
}

/**
 * Acts on a tap kept for `name` once the control (`ref`) is live: at once when it mounts outside any
 * inert ancestor, else when that ancestor stops being inert (the session check ends), which need not
 * render this control again, or when a tap is kept after it mounted under the inert page.
 */
export function useFirstTap(name: string | undefined, ref: RefObject<HTMLElement | null>, onTap: () => void) {
  const latest = useRef(onTap);
  latest.current = onTap;
  useEffect(() => {
    if (!name) return;
    const actIfLive = () => {
      if (ref.current && !ref.current.closest('[inert]') && takePendingTap(name)) latest.current();
    };
    actIfLive();
    const observer = new MutationObserver(actIfLive);
    observer.observe(document.documentElement, { subtree: true, attributes: true, attributeFilter: ['inert', PENDING_TAP_ATTRIBUTE] });
    return () => observer.disconnect();
  }, [name, ref]);
}
