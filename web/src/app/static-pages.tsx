// The build's server-side entry (web/prerender.ts): renders a public page as a visitor sees it
// before any API answer, for the browser to hydrate.
import { PassThrough } from 'node:stream';
import { renderToString } from 'react-dom/server';
import { prerenderToNodeStream } from 'react-dom/static';
import { MemoryRouter } from 'react-router-dom';
import { PageSpinner } from '@/components/Spinner';
import { App } from './App';

const app = (path: string) => <App router={({ children }) => <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>} />;

export async function renderPage(path: string): Promise<string> {
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
