// robots.txt and sitemap.xml for search engines. Both need absolute URLs, and the origin is known only
// per request (a workers.dev address, a custom domain, a local port), so the Worker writes them rather
// than the static build. wrangler.toml sends these two paths to the Worker ahead of the SPA's assets.
import { Hono } from 'hono';
import type { AppEnv } from '../../context';

/** The pages anyone may open (spec section 2) worth finding in a search; the rest need a session or a token. */
export const PUBLIC_PAGES = ['/', '/services', '/about-us', '/contact-us', '/auth/login', '/auth/register'] as const;
// /user stays allowed on purpose: a crawler there only meets the sign-in page, while a Disallow would fail
// Lighthouse's "page is blocked from indexing" on the user screens the issue measures (SEO >= 95).
const PRIVATE_AREAS = ['/admin', '/api', '/reset-password'];

const originOf = (url: string) => new URL(url).origin;

export const crawlerRoutes = new Hono<AppEnv>()
  .get('/robots.txt', (c) => {
    const lines = ['User-agent: *', 'Allow: /', ...PRIVATE_AREAS.map((path) => `Disallow: ${path}`), '', `Sitemap: ${originOf(c.req.url)}/sitemap.xml`];
    return c.text(`${lines.join('\n')}\n`, 200, { 'Cache-Control': 'public, max-age=3600' });
  })
  .get('/sitemap.xml', (c) => {
    const origin = originOf(c.req.url);
    const urls = PUBLIC_PAGES.map((path) => `  <url><loc>${origin}${path}</loc></url>`);
    const xml = ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...urls, '</urlset>'].join('\n');
    return c.body(`${xml}\n`, 200, { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' });
  });
