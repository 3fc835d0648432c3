// Working offline, on the page's side: registers the service worker (/sw.js), runs a share
// page's "keep offline" switch, and tells an editor that is offline that it needs a connection.
(() => {
  const worker = document.currentScript && document.currentScript.dataset.worker;
  if ("serviceWorker" in navigator && worker) {
    const opened = location.pathname; // before the worker was in charge: kept on its word
    const inCharge = Boolean(navigator.serviceWorker.controller);
    navigator.serviceWorker
      .register(worker, { scope: "/" })
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => inCharge || registration.active.postMessage({ keep: opened }))
      .catch(() => {});
    if (!inCharge) holdPdfsUntilTheWorkerStarts();
  }
  document.addEventListener("DOMContentLoaded", () => {
    const keep = document.querySelector("[data-keep-offline]");
    if (keep && "serviceWorker" in navigator && "caches" in window) keepOfflineSwitch(keep);
    const notice = document.querySelector("[data-offline-notice]");
    if (notice) editorNeedsConnection(notice);
  });

  // On a device's first page, a PDF asked for before the worker has started would not be
  // kept: its download waits for the worker (a few seconds at most).
  function holdPdfsUntilTheWorkerStarts() {
    let started = false;
    const ready = Promise.race([navigator.serviceWorker.ready, new Promise((resolve) => setTimeout(resolve, 5000))]);
    ready.then(() => (started = true));
    const isPdf = (url) => /\/(cards|list)\.pdf$/.test(new URL(url, location.href).pathname);
    document.addEventListener("submit", (event) => {
      const form = event.target;
      if (started || event.defaultPrevented || !isPdf(form.action)) return;
      event.preventDefault();
      ready.then(() => form.submit());
    });
    document.addEventListener("click", (event) => {
      const link = event.target.closest && event.target.closest("a[href]");
      if (started || event.defaultPrevented || !link || !isPdf(link.href)) return;
      event.preventDefault();
      ready.then(() => location.assign(link.href));
    });
  }

  // --- the share page's switch ----------------------------------------------------

  const KEPT = "kept-rosters"; // localStorage: the share pages whose PDFs this device keeps
  const KEPT_VERSIONS = "kept-roster-versions"; // localStorage: each share page's version its kept PDFs are of
  const RENDER_WAIT_MS = 3000;
  const RENDER_GIVE_UP_MS = 10 * 60 * 1000;

  function keptRosters() {
    try {
      return new Set(JSON.parse(localStorage.getItem(KEPT) || "[]"));
    } catch (broken) {
      return new Set();
    }
  }

  function remember(page, on) {
    const kept = keptRosters();
    if (on) kept.add(page);
    else kept.delete(page);
    localStorage.setItem(KEPT, JSON.stringify([...kept]));
  }

  function keptVersions() {
    try {
      return JSON.parse(localStorage.getItem(KEPT_VERSIONS) || "{}");
    } catch (broken) {
      return {};
    }
  }

  function rememberVersion(page, version) {
    const versions = keptVersions();
    if (version === undefined) delete versions[page];
    else versions[page] = version;
    localStorage.setItem(KEPT_VERSIONS, JSON.stringify(versions));
  }

  // Any kind of roster's share page: the section names its PDFs and the roster's version (templates/lists/_keep_offline.html).
  function keepOfflineSwitch(section) {
    const page = location.pathname;
    const toggle = section.querySelector("[data-keep-switch]");
    const status = section.querySelector("[data-keep-status]");
    const version = section.dataset.version;
    const pdfs = [
      ["unit cards", section.dataset.cards],
      ["organiser's list", section.dataset.list],
    ];
    section.hidden = false;
    toggle.checked = keptRosters().has(page);
    const show = async () => {
      const keptAt = keptVersions()[page]; // none for PDFs kept before versions were recorded: not known to be older
      const older = toggle.checked && keptAt !== undefined && keptAt !== version && !(await missingPdfs(pdfs)).length;
      status.textContent = await keptSummary(page, pdfs, older);
    };
    const keep = async (which) => {
      if (await keepPdfs(which, status)) rememberVersion(page, version);
    };
    toggle.addEventListener("change", async () => {
      remember(page, toggle.checked);
      if (toggle.checked) {
        await keep(pdfs);
      } else {
        rememberVersion(page, undefined);
        await forgetPdfs(pdfs);
      }
      await show();
    });
    show().then(async () => {
      if (!toggle.checked || !navigator.onLine) return;
      // The roster changed since its PDFs were kept: fetch both again (the older ones stay until then).
      // Else kept before a deploy replaced the PDFs: fetch those again while there is a signal.
      const missing = await missingPdfs(pdfs);
      if (keptVersions()[page] !== version) await keep(pdfs);
      else if (missing.length) await keep(missing);
      else return;
      await show();
    });
  }

  // The service worker keeps every PDF fetched through it: it has to be in charge of this page first.
  async function workerInCharge() {
    await navigator.serviceWorker.ready;
    for (let waited = 0; !navigator.serviceWorker.controller && waited < 5000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return Boolean(navigator.serviceWorker.controller);
  }

  // Fetches each PDF through the worker, which keeps it (replacing an older copy); true once all are kept.
  async function keepPdfs(pdfs, status) {
    if (!(await workerInCharge())) {
      status.textContent = "This browser cannot keep pages offline here.";
      return false;
    }
    for (const [what, url] of pdfs) {
      const started = Date.now();
      for (;;) {
        status.textContent = `Fetching the ${what}…`;
        const response = await fetch(url, { credentials: "same-origin", cache: "reload" }).catch(() => null);
        if (response && response.status === 200) {
          await keptSoon(url); // the worker stores it as it hands it over
          break;
        }
        if (!response || response.status === 503 || Date.now() - started > RENDER_GIVE_UP_MS) {
          status.textContent = `The ${what} could not be fetched: try again with a connection.`;
          return false;
        }
        // 202 while the PDF renders (429 when this device asked for too many at once): ask again shortly.
        status.textContent = `The ${what} is being prepared…`;
        await new Promise((resolve) => setTimeout(resolve, RENDER_WAIT_MS));
      }
    }
    return true;
  }

  async function keptCopy(url, anyLayout) {
    return caches.match(url, { ignoreVary: true, ignoreSearch: anyLayout });
  }

  async function keptSoon(url) {
    for (let waited = 0; !(await keptCopy(url, false)) && waited < 10000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function missingPdfs(pdfs) {
    const missing = [];
    for (const pdf of pdfs) if (!(await keptCopy(pdf[1], false))) missing.push(pdf);
    return missing;
  }

  async function forgetPdfs(pdfs) {
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const [, url] of pdfs) await cache.delete(url, { ignoreSearch: true, ignoreVary: true });
    }
  }

  async function keptSummary(page, pdfs, older) {
    const parts = [];
    const items = [
      ["this page", page],
      ["roster.yaml", new URL("roster.yaml", location.href).pathname],
      ...pdfs,
    ];
    for (const [what, url] of items) {
      const copy = await keptCopy(url, url.includes(".pdf"));
      if (copy) parts.push(`${what} (${size((await copy.blob()).size)})`);
    }
    let kept = parts.length ? `Kept on this device: ${parts.join(", ")}.` : "Nothing of this roster is kept on this device yet.";
    if (older) kept += " Its unit cards and organiser's list are of an earlier version of this roster: open this page with a connection to fetch them again.";
    return navigator.onLine ? kept : `Offline: this is the copy kept on this device. ${kept}`;
  }

  function size(bytes) {
    if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
    return `${Math.max(1, Math.round(bytes / 1024))} kB`;
  }

  // --- the editor ------------------------------------------------------------------

  // Offline, the editor's forms are made inert, so no change is made that could not be saved.
  function editorNeedsConnection(notice) {
    const update = () => {
      const offline = !navigator.onLine;
      notice.hidden = !offline;
      for (const form of document.querySelectorAll("main form")) form.inert = offline;
    };
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    document.body.addEventListener("htmx:sendError", () => {
      notice.hidden = false;
      notice.textContent = "Your last change was not saved: there is no connection. Reload the page once you are back online and make it again.";
    });
    update();
  }
})();
