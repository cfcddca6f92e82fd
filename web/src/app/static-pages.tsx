// The build's server-side entry (web/prerender.ts): renders a public page as a visitor sees it
// before any API answer, for the browser to hydrate; and a signed-in page as anyone signed in sees it
// while the session check runs (RequireUserType), for the browser to paint at once and render over.
import { PassThrough } from 'node:stream';
import type { UserType } from '@vocabulary';

import { renderToString } from 'react-dom/server';
import { prerenderToNodeStream } from 'react-dom/static';
import { MemoryRouter } from 'react-router-dom';
import { PageSpinner } from '@/components/Spinner';
import { encode, TOKEN_KEY, USER_KEY } from '@/lib/session';
import { App } from './App';

const app = (path: string) => <App router={({ children }) => <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>} />;

/** Someone signed in, as storage would hold them: no one in particular, of the type whose area the page is in. */
function signedInStorage(userType: UserType): Storage {
  const entries = new Map([
    [TOKEN_KEY, 'pre-rendered'],
    [USER_KEY, encode({ id: 0, fullName: '', email: '', username: '', userType })],
  ]);
  return {
    length: entries.size,
    key: (index) => [...entries.keys()][index] ?? null,
    getItem: (key) => entries.get(key) ?? null,
    setItem: () => undefined,
    removeItem: () => undefined,
    clear: () => undefined,
  };
}

export async function renderPage(path: string, signedInAs?: UserType): Promise<string> {
  if (!signedInAs) return renderFor(path);
  // The session code reads the browser's storage through `window`, which the build does not have.
  const global = globalThis as { window?: unknown };
  global.window = { localStorage: signedInStorage(signedInAs), sessionStorage: signedInStorage(signedInAs) };
  try {
    return await renderFor(path);
  } finally {
    delete global.window;
  }
}

async function renderFor(path: string): Promise<string> {
  // The first pass waits for the page's lazy screens to load. Rendered again with them loaded,
  // nothing suspends: the markup is complete and in place, with none of the inline scripts React adds
  // to reveal boundaries that finished late (which the Content-Security-Policy would refuse).
  const { prelude } = await prerenderToNodeStream(app(path));
  for await (const chunk of prelude.pipe(new PassThrough())) void chunk;
  const markup = renderToString(app(path));
  if (markup.includes('<script') || markup.includes('<!--$?') || markup.includes('<!--$!'))
    throw new Error(`${path} did not render in full before the build wrote it`);
  return markup;
}

/** What a page shows while its screens load, for the paths with no pre-rendered page of their own. */
export const renderLoading = () => renderToString(<PageSpinner fullScreen />);
