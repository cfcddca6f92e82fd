import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from '@/app/App';
import { startSessionRequests } from '@/app/earlyRequests';
import { preloadScreens } from '@/app/routes';
import { takeRootWithKeptTap } from '@/lib/firstTap';
import '@/index.css';

startSessionRequests(window.location.pathname);
// The screens' chunks are asked for in the next task: the preload links their imports add cost a
// phone as much again as the requests above, and one long task blocks a tap where two short ones do not.
const screensLoaded = new Promise((resolve) => setTimeout(resolve)).then(() => preloadScreens(window.location.pathname));

const container = document.getElementById('root')!;
// A page the build pre-rendered for this path and a visitor (web/prerender.ts shows a spinner instead
// otherwise): React takes over the markup already on screen instead of painting it again, once the
// page's screens are here (a screen still loading would be painted over with a spinner at the first update).
// Any other page keeps the markup on screen (a signed-in page as it looks during the session check, or
// the spinner) until its screens are here too, and then renders over it once; the signed-in page is
// rendered rather than hydrated because it differs from the markup in the person's own details. This
// task ends at once, so the requests started above are on their way while the screens load. A screen
// that failed to load is left to React.lazy, as before.
// Either first render is a transition: React renders it in slices and lets the phone answer a tap in
// between, instead of holding the main thread for the whole page. A button tapped on the pre-rendered
// page before this is tapped again as React takes the page (lib/firstTap.ts).
if (container.dataset.page && !container.dataset.signedIn)
  void screensLoaded.then(() => takeRootWithKeptTap(container, () => startTransition(() => void hydrateRoot(container, <App />))));
else void screensLoaded.catch(() => undefined).then(() => takeRootWithKeptTap(container, () => startTransition(() => createRoot(container).render(<App />))));
