import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from '@/app/App';
import { startSessionRequests } from '@/app/earlyRequests';
import { preloadScreens } from '@/app/routes';
import '@/index.css';

startSessionRequests(window.location.pathname);
const screensLoaded = preloadScreens(window.location.pathname);

const container = document.getElementById('root')!;
// A page the build pre-rendered for this path and a visitor (web/prerender.ts shows a spinner instead
// otherwise): React takes over the markup already on screen instead of painting it again, once the
// page's screens are here (a screen still loading would be painted over with a spinner at the first update).
// Any other page keeps the markup's spinner until its screens are here too, and renders them once rather
// than a spinner first; this task ends at once, so the requests started above are on their way while
// the screens load. A screen that failed to load is left to React.lazy, as before.
if (container.dataset.page) void screensLoaded.then(() => hydrateRoot(container, <App />));
else void screensLoaded.catch(() => undefined).then(() => createRoot(container).render(<App />));
