// A tap on a header control before the control can take it: the signed-in pages are painted from
// pre-rendered markup, inert under the session check, long before their code has arrived and run
// (seconds on a cheap phone). Inert markup lets the tap fall through to the page, so it would be lost.
// The pre-rendered page's inline script (web/prerender.ts, recordFirstTapScript) notes which marked
// control was under such a tap on <html>; the control, once live, takes the note and acts on it once.
// A visitor's page is not inert, but its buttons do nothing until React has taken the markup (main.tsx
// hydrates it once the page's code is here): the same script marks a button tapped meanwhile, and
// main.tsx taps it again as it hands the page to React. A link of the inert page tapped meanwhile is
// followed once the session check has let the person in (app/RequireUserType.tsx).
import { type RefObject, useEffect, useRef } from 'react';

/** Marks a control (its value names it) whose tap is kept while it cannot take it. */
export const FIRST_TAP_ATTRIBUTE = 'data-first-tap';
/** On <html>: "<name> <Date.now()>" of the last tap kept. */
export const PENDING_TAP_ATTRIBUTE = 'data-pending-tap';
/** On #root once main.tsx has handed the page to React, which from then on answers every tap itself. */
export const ROOT_TAKEN_ATTRIBUTE = 'data-taken';
/** On a button of a pre-rendered page tapped before React took the page: the tap's Date.now(). */
export const KEPT_TAP_ATTRIBUTE = 'data-kept-tap';
/** A tap older than this is not acted on: the person has moved on (or the session check sent them to sign in). */
export const PENDING_TAP_MAX_AGE_MS = 20_000;

/** The note's name for a tap on a link of the inert page: the prefix, then the link's path. */
const LINK_TAP_PREFIX = 'link:';

/**
 * The inline script's listener, as source (ES5: it runs before any of the SPA's code). A click whose
 * point lies on a visible control of the inert page is kept: a marked control by its name, else a link
 * within the shop by its path; a live control takes its own taps. A click on a button of the page before
 * React took it marks that button, the last one tapped alone.
 */
export const recordFirstTapScript = () =>
  `document.addEventListener("click",function(e){function under(c){var r=c.getBoundingClientRect();` +
  `return c.closest("[inert]")&&getComputedStyle(c).visibility!=="hidden"&&e.clientX>=r.left&&e.clientX<r.right&&e.clientY>=r.top&&e.clientY<r.bottom}` +
  `var note=null,marked=document.querySelectorAll("[${FIRST_TAP_ATTRIBUTE}]"),links=document.querySelectorAll("#root [inert] a[href^='/']");` +
  `for(var i=0;i<marked.length;i++)if(under(marked[i]))note=marked[i].getAttribute("${FIRST_TAP_ATTRIBUTE}");` +
  `for(var j=0;!note&&j<links.length;j++){var h=links[j].getAttribute("href");if(h.charAt(1)!=="/"&&h.indexOf(" ")<0&&under(links[j]))note="${LINK_TAP_PREFIX}"+h}` +
  `if(note)document.documentElement.setAttribute("${PENDING_TAP_ATTRIBUTE}",note+" "+Date.now());` +
  `var root=document.getElementById("root"),b=e.target&&e.target.closest&&e.target.closest("button");` +
  `if(root&&b&&!b.disabled&&root.contains(b)&&!root.hasAttribute("${ROOT_TAKEN_ATTRIBUTE}")){` +
  `var kept=root.querySelectorAll("[${KEPT_TAP_ATTRIBUTE}]");for(var k=0;k<kept.length;k++)kept[k].removeAttribute("${KEPT_TAP_ATTRIBUTE}");` +
  `b.setAttribute("${KEPT_TAP_ATTRIBUTE}",String(Date.now()))}},true)`;

/**
 * Hands #root to React (`take` hydrates or renders it), then taps again the button of the pre-rendered
 * page tapped while the page could not answer, if the tap is recent. The mark comes off first, so React
 * meets the markup as the build wrote it; a tap on markup React has not hydrated yet makes React hydrate
 * at once, as it does for any tap during hydration.
 */
export function takeRootWithKeptTap(root: HTMLElement, take: () => void, now = Date.now()): void {
  const kept = root.querySelector<HTMLElement>(`[${KEPT_TAP_ATTRIBUTE}]`);
  const recent = kept !== null && now - Number(kept.getAttribute(KEPT_TAP_ATTRIBUTE)) <= PENDING_TAP_MAX_AGE_MS;
  kept?.removeAttribute(KEPT_TAP_ATTRIBUTE);
  root.setAttribute(ROOT_TAKEN_ATTRIBUTE, '');
  take();
  if (recent) kept.click();
}

/** The kept tap's note, taken off <html> when `isTheirs` says it is theirs; its name if it is recent enough to act on. */
function takeNote(isTheirs: (name: string) => boolean, now: number): string | null {
  const [tapped, at] = (document.documentElement.getAttribute(PENDING_TAP_ATTRIBUTE) ?? '').split(' ');
  if (!tapped || !isTheirs(tapped)) return null;
  document.documentElement.removeAttribute(PENDING_TAP_ATTRIBUTE);
  return now - Number(at) <= PENDING_TAP_MAX_AGE_MS ? tapped : null;
}

/** Whether a recent kept tap was on the control `name`; the note is removed either way once it is theirs. */
export const takePendingTap = (name: string, now = Date.now()): boolean => takeNote((tapped) => tapped === name, now) !== null;

/** The path of a link tapped on the inert page, if the tap is recent; the note is removed either way once it is a link's. */
export const takePendingLink = (now = Date.now()): string | null =>
  takeNote((tapped) => tapped.startsWith(LINK_TAP_PREFIX), now)?.slice(LINK_TAP_PREFIX.length) ?? null;

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
