// A build step: after the SPA is built, the public pages are rendered to static HTML (as a visitor
// sees them before any API answer) and written next to index.html, so a phone paints the page
// from the first response instead of after the JavaScript; the SPA then hydrates it (main.tsx). The
// user pages opened most are rendered too, as they look during the session check, for the SPA to
// render over. The Worker's assets serve /services from services.html, /user/orders from
// user/orders.html...; any other path falls back to index.html, which is Home's page, so a small
// inline script swaps it for the loading spinner before the first paint wherever it is not Home, and
// wherever the page is not for whoever is here; it also asks for the SPA's code once the page has painted.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin, type ResolvedConfig } from 'vite';
import { USER_TYPE } from '../vocabulary/index.js';
import { recordFirstTapScript } from './src/lib/firstTap.js';
import { USER_KEY } from './src/lib/session.js';

/** Pages a visitor reaches first, from search engines and shared links. */
export const PRERENDERED_PAGES = ['/', '/services', '/about-us', '/contact-us', '/auth/login', '/auth/register'];
/**
 * Pages a customer opens most (from a bookmark, the home screen, a payment's return), pre-rendered as
 * they look while the session check runs: pages whose first look holds nothing of the person's own.
 */
export const SIGNED_IN_PAGES = ['/user/services', '/user/create-order', '/user/orders', '/user/transactions', '/user/add-fund'];

const fileFor = (page: string) => (page === '/' ? 'index.html' : `${page.slice(1)}.html`);

/**
 * Swaps the page for the loading spinner before it paints where the markup is not this path's (#root's
 * data-page), or not for whoever is here: a visitor's page for someone signed in, a signed-in page
 * (data-signed-in) for a visitor; main.tsx then renders instead of hydrating. Then, once the first
 * contentful paint is on screen, asks for the SPA's code: the entry and the modules it imports, all at
 * once (modulepreload), and runs them one after the other, each in a task of its own, so a phone can
 * answer a tap between React, the query library and the app instead of after all three. The page needs
 * none of it to paint, so on a slow link it does not share the line with the HTML, and from the cache it
 * does not hold the paint back by the time a phone takes to evaluate React. A hidden tab paints nothing
 * and a browser that cannot report the paint gets the code at once; the timer is a last resort. One
 * script for every page, so the Content-Security-Policy allows it by its hash. (Forms stay inert until
 * hydrated: lib/hydrated.ts.) It also keeps a tap on a header control that cannot take it yet (lib/firstTap.ts).
 */
const guardScript = (spinner: string, { entry, imports }: EntryFiles) =>
  `try{${recordFirstTapScript()}}catch(e){}` +
  `try{var root=document.getElementById("root");if(location.pathname!==root.dataset.page||!localStorage.getItem(${JSON.stringify(USER_KEY)})!==!root.dataset.signedIn){root.removeAttribute("data-page");root.innerHTML=${JSON.stringify(spinner)}}}catch(e){}` +
  `(function(){var started=false;function add(tag,attributes){var element=document.createElement(tag);for(var name in attributes)element.setAttribute(name,attributes[name]);document.head.appendChild(element)}` +
  `function start(){if(started)return;started=true;var files=${JSON.stringify([...imports, entry])},next=Promise.resolve();files.forEach(function(href){add("link",{rel:"modulepreload",crossorigin:"",href:href})});` +
  `files.forEach(function(href){next=next.then(function(){return new Promise(function(resolve){setTimeout(resolve)})}).then(function(){return import(href)})})}` +
  `try{if(document.visibilityState==="hidden"||PerformanceObserver.supportedEntryTypes.indexOf("paint")<0)return start();` +
  `new PerformanceObserver(function(list,observer){if(list.getEntriesByName("first-contentful-paint").length){observer.disconnect();start()}}).observe({type:"paint",buffered:true});setTimeout(start,1000)}catch(e){start()}})()`;

interface EntryFiles {
  /** The SPA's entry module. */
  entry: string;
  /** The modules it imports, which Vite's index.html preloads. */
  imports: string[];
}

/** The template without its entry script and modulepreloads: guardScript asks for them once the page has painted. */
function deferEntry(html: string): { html: string; files: EntryFiles } {
  const script = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>\s*/.exec(html);
  if (!script) throw new Error('index.html has no module entry script to start after the first paint');
  const preloads = [...html.matchAll(/<link rel="modulepreload" crossorigin href="(\/assets\/[^"]+\.js)">\s*/g)];
  let deferred = html.replace(script[0], '');
  for (const preload of preloads) deferred = deferred.replace(preload[0], '');
  return { html: deferred, files: { entry: script[1], imports: preloads.map((preload) => preload[1]) } };
}

/** dist/_headers' policy with the guard's hash added to script-src (it allows 'self' scripts only). */
function allowGuard(headers: string, guard: string): string {
  const hash = `'sha256-${createHash('sha256').update(guard).digest('base64')}'`;
  const allowed = headers.replace(/(script-src [^;\n]*)/, `$1 ${hash}`);
  if (allowed === headers) throw new Error("_headers has no script-src to allow the pre-rendered pages' inline script in");
  return allowed;
}

/**
 * The stylesheet in the page itself: painting the pre-rendered markup then waits for the HTML alone,
 * not for a second request competing with the scripts for a slow link (the policy allows inline styles).
 */
function inlineStylesheet(html: string, outDir: string): string {
  const link = /<link rel="stylesheet" crossorigin href="\/([^"]+\.css)">/.exec(html);
  if (!link) throw new Error('index.html links no stylesheet to inline');
  return html.replace(link[0], () => `<style>${readFileSync(path.join(outDir, link[1]), 'utf8')}</style>`);
}

export function prerenderPublicPages(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'prerender-public-pages',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      if (config.build.ssr) return;
      const outDir = path.resolve(config.root, config.build.outDir);
      // Inside the project, so the server bundle's imports of node_modules resolve wherever outDir is.
      const serverDir = path.join(path.dirname(config.configFile ?? config.root), 'node_modules', '.cache', `prerender-${process.pid}`);
      await build({
        configFile: config.configFile,
        mode: config.mode,
        logLevel: 'warn',
        build: {
          ssr: path.join(config.root, 'src/app/static-pages.tsx'),
          outDir: serverDir,
          emptyOutDir: true,
          rolldownOptions: { output: { codeSplitting: true } },
        },
      });
      try {
        const { renderPage, renderLoading } = (await import(
          pathToFileURL(path.join(serverDir, 'static-pages.js')).href
        )) as typeof import('./src/app/static-pages');
        const { html: template, files } = deferEntry(inlineStylesheet(readFileSync(path.join(outDir, 'index.html'), 'utf8'), outDir));
        if (!template.includes('<div id="root"></div>')) throw new Error('index.html has no empty <div id="root"></div> to pre-render into');
        const guard = guardScript(renderLoading(), files);
        const pages = [...PRERENDERED_PAGES.map((page) => ({ page, signedIn: false })), ...SIGNED_IN_PAGES.map((page) => ({ page, signedIn: true }))];
        for (const { page, signedIn } of pages) {
          const markup = await renderPage(page, signedIn ? USER_TYPE.user : undefined);
          const file = path.join(outDir, fileFor(page));
          mkdirSync(path.dirname(file), { recursive: true });
          const root = `<div id="root" data-page="${page}"${signedIn ? ' data-signed-in="true"' : ''}>${markup}</div>`;
          writeFileSync(file, template.replace('<div id="root"></div>', `${root}<script>${guard}</script>`));
        }
        const headers = path.join(outDir, '_headers');
        if (existsSync(headers)) writeFileSync(headers, allowGuard(readFileSync(headers, 'utf8'), guard));
      } finally {
        rmSync(serverDir, { recursive: true, force: true });
      }
    },
  };
}
