// Keeps what a player needs at the table without a signal: each roster's share page, its
// roster.yaml and its PDFs once downloaded, "my rosters", the home page and the static files.
// Served by /sw.js, which puts CONFIG (this deploy's version, the files to fetch and the folders
// share pages live under: our rosters' /r/ and BattleScribe rosters' /bs/r/) above.
// Never kept: the editor (/e/<secret>/), anything else, and every answer to a POST.
const CACHE = `kept-${CONFIG.version}`;
const asPattern = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const SHARED = `(?:${CONFIG.shareRoots.map(asPattern).join("|")})[^/]+/`; // a share page's folder, any kind of roster
const SHARE_PAGE = new RegExp(`^${SHARED}$`);
const ROSTER_FILE = new RegExp(`^${SHARED}roster\\.yaml$`);
const PDF = new RegExp(`^${SHARED}(cards|list)\\.pdf$`);
const EDITOR = /^\/e\//;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll([CONFIG.offlinePage, CONFIG.home, ...CONFIG.staticFiles]);
      await keepMyRosters(cache).catch(() => {});
      await self.skipWaiting();
    })(),
  );
});

// A new version replaces the old one's copies: every page it kept is fetched again (PDFs
// whose render has to start again are fetched by the share page's "keep offline" switch).
self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      for (const name of await caches.keys()) {
        if (name === CACHE || !name.startsWith("kept-")) continue;
        const old = await caches.open(name);
        const requests = await old.keys();
        const pages = requests.filter((request) => !new URL(request.url).pathname.startsWith(CONFIG.staticPrefix));
        await Promise.all(pages.map((request) => keepUrl(cache, new URL(request.url))));
        await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

// A page opened before the worker was in charge asks to be kept (static/js/offline.js).
self.addEventListener("message", (event) => {
  if (!event.data || typeof event.data.keep !== "string") return;
  const url = new URL(event.data.keep, self.location.origin);
  event.waitUntil(caches.open(CACHE).then((cache) => keepUrl(cache, url)));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.headers.get("HX-Request")) return; // page fragments are never kept
  const path = url.pathname;
  if (EDITOR.test(path)) {
    if (request.mode === "navigate") event.respondWith(networkOrOfflinePage(request));
    return;
  }
  if (path.startsWith(CONFIG.staticPrefix)) {
    event.respondWith(staticFile(request));
  } else if (path === CONFIG.myRosters && request.mode === "navigate") {
    event.respondWith(networkFirst(event, keepMyRosters));
  } else if (SHARE_PAGE.test(path) && !url.search) {
    event.respondWith(networkFirst(event, (cache, response) => keepSharePage(cache, request, response)));
  } else if ((path === CONFIG.home || ROSTER_FILE.test(path)) && !url.search) {
    event.respondWith(networkFirst(event, (cache, response) => cache.put(request, response)));
  } else if (PDF.test(path) && !url.searchParams.has("wait")) {
    event.respondWith(networkFirst(event, (cache, response) => keepPdf(cache, request, response), true));
  } else if (request.mode === "navigate") {
    event.respondWith(networkOrOfflinePage(request));
  }
});

// Online, the newest version (the kept copy updated while it is shown; a PDF is kept before it is
// handed over, so a download that has finished is on the device); offline, the kept copy.
async function networkFirst(event, keep, keepFirst = false) {
  const request = event.request;
  let response;
  try {
    response = await fetch(request);
  } catch (offline) {
    // Asked for the network's copy ("keep offline" fetching a newer PDF): the kept one would pass for it.
    if (request.cache === "reload") return Response.error();
    return (await keptCopy(request)) || offlinePage(request);
  }
  if (isWhole(response)) {
    const copy = response.clone();
    const kept = caches.open(CACHE).then((cache) => keep(cache, copy)).catch(() => {});
    if (keepFirst) await kept;
    else event.waitUntil(kept);
  }
  return response;
}

async function keptCopy(request) {
  const cache = await caches.open(CACHE);
  const isPdf = PDF.test(new URL(request.url).pathname);
  const exact = await cache.match(isPdf ? pdfAddress(request.url) : request, { ignoreVary: true });
  if (exact || !isPdf) return exact;
  // Another layout of the same PDF is not the one asked (poker cards for A6 ones): a page says so and links it.
  const other = await cache.match(request, { ignoreSearch: true, ignoreVary: true });
  return other ? otherLayoutPage(pdfAddress(other.url || request.url)) : undefined;
}

function otherLayoutPage(keptAddress) {
  const kept = new URL(keptAddress);
  const layout = [...kept.searchParams].map(([name, value]) => `${name} ${value}`).join(", ") || "as first made";
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not kept on this device</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head><body><main>
<h1>Not kept on this device</h1>
<p>This PDF is kept offline only in another layout, not the one asked for.</p>
<p>Kept: <a href="${escapeHtml(kept.pathname + kept.search)}">the same PDF, ${escapeHtml(layout)}</a>.</p>
</main></body></html>`;
  return new Response(html, { status: 404, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

function escapeHtml(text) {
  const entities = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
  return text.replace(/[&<>"']/g, (character) => entities[character]);
}

async function networkOrOfflinePage(request) {
  try {
    return await fetch(request);
  } catch (offline) {
    return offlinePage(request);
  }
}

async function offlinePage(request) {
  const page = request.mode === "navigate" ? await caches.match(CONFIG.offlinePage, { cacheName: CACHE }) : undefined;
  return page || Response.error();
}

// Static files change name or content only with a deploy, which brings a new cache.
async function staticFile(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request, { ignoreVary: true });
  if (kept) return kept;
  const response = await fetch(request);
  if (isWhole(response)) await cache.put(request, response.clone());
  return response;
}

// A share page, and its roster.yaml beside it (the share page shows nothing more than it).
async function keepSharePage(cache, request, response) {
  await cache.put(request, response);
  const file = new URL("roster.yaml", request.url);
  const yaml = await fetch(file).catch(() => null);
  if (yaml && isWhole(yaml)) await cache.put(file, yaml);
}

// A PDF is kept once it is one: while it renders the answer is a 202 page, never kept.
async function keepPdf(cache, request, response) {
  if ((response.headers.get("Content-Type") || "").startsWith("application/pdf")) {
    await cache.put(pdfAddress(request.url), response);
  }
}

// "My rosters" is kept in its share-link form: an edit link never stays on the device.
async function keepMyRosters(cache) {
  const response = await fetch(CONFIG.myRostersKept, { credentials: "same-origin" });
  if (isWhole(response)) await cache.put(CONFIG.myRosters, response);
}

// Fetches a page the worker may keep, and keeps it; anything else is left alone.
async function keepUrl(cache, url) {
  const path = url.pathname;
  const request = new Request(url.href);
  try {
    if (path === CONFIG.myRosters) return await keepMyRosters(cache);
    const keepable = SHARE_PAGE.test(path) || ROSTER_FILE.test(path) || PDF.test(path) || path === CONFIG.home;
    if (!keepable || url.origin !== self.location.origin) return;
    const response = await fetch(request);
    if (!isWhole(response)) return;
    if (PDF.test(path)) return await keepPdf(cache, request, response);
    if (SHARE_PAGE.test(path)) return await keepSharePage(cache, request, response);
    await cache.put(request, response);
  } catch (offline) {
    // Not kept until the page is opened again online.
  }
}

function isWhole(response) {
  return response.status === 200 && response.type === "basic" && !response.redirected;
}

// The downloads' script asks for a PDF with `?hold=1` (answered once it is rendered); the plain link
// is the same file, so both are kept and found under the address without it.
function pdfAddress(url) {
  const address = new URL(url);
  address.searchParams.delete("hold");
  return address.href;
}
