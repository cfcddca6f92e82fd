import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router-dom';
import { setNavigator } from '@/lib/api';
import { App } from './App';
import { preloadScreens, routes } from './routes';
import './index.css';

const screensLoaded = preloadScreens(window.location.pathname);
const router = createBrowserRouter(routes);
// The API client's shared error handler navigates through the router (no full reload).
setNavigator((path) => void router.navigate(path, { replace: true }));

const container = document.getElementById('root')!;
// A page the build pre-rendered for this path and a visitor (web/prerender.ts shows a spinner instead
// otherwise): React takes over the markup already on screen instead of painting it again, once the
// page's screens are here (a screen still loading would be painted over with a spinner at the first update).
if (container.dataset.page) void screensLoaded.then(() => hydrateRoot(container, <App router={router} />));
else createRoot(container).render(<App router={router} />);
