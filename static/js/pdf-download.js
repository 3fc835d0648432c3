// PDF downloads without leaving the page: a click on a [data-pdf-download] form or link asks for
// the PDF with ?hold=1, which the server holds until the render is done (or about 20 s pass, or it
// holds too many already: then it answers 202 and this asks again). The PDF is handed to the
// browser as a download. A failure, or a refusal, opens the progress page, which says why.
// Without JavaScript the same form and link open that progress page, which follows the render.
(() => {
  if (window.pdfDownloads) return; // the downloads may be swapped in again by htmx
  window.pdfDownloads = true;
  const BUSY_PAUSE_MS = 1000; // when the server answered at once (holding too many requests)

  function requestedUrl(target) {
    if (target instanceof HTMLFormElement) {
      const url = new URL(target.action, document.baseURI);
      url.search = new URLSearchParams(new FormData(target)).toString();
      return url;
    }
    return new URL(target.href, document.baseURI);
  }

  function filenameOf(response, url) {
    const header = response.headers.get("Content-Disposition") || "";
    const encoded = header.match(/filename\*=UTF-8''([^;]+)/i);
    if (encoded) return decodeURIComponent(encoded[1]);
    const plain = header.match(/filename="?([^";]+)"?/i);
    return plain ? plain[1] : url.pathname.split("/").pop();
  }

  function save(blob, filename) {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = filename;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  }

  async function fetchPdf(url, status) {
    const held = new URL(url);
    held.searchParams.set("hold", "1");
    for (let dropped = 0; ; ) {
      const asked = Date.now();
      let response;
      try {
        response = await fetch(held, { credentials: "same-origin" });
      } catch (lost) {
        // A held request cut off on the way (a proxy's time limit, a restart) is asked again, twice.
        if (++dropped > 2) throw lost;
        await new Promise((done) => setTimeout(done, BUSY_PAUSE_MS));
        continue;
      }
      const type = response.headers.get("Content-Type") || "";
      if (response.ok && type.startsWith("application/pdf")) return response;
      if (response.status !== 202) throw new Error(`answered ${response.status}`);
      status.textContent = "Still rendering: the file downloads by itself when it is ready.";
      if (Date.now() - asked < BUSY_PAUSE_MS) await new Promise((done) => setTimeout(done, BUSY_PAUSE_MS));
    }
  }

  async function download(target) {
    const section = target.closest(".downloads") || document;
    const status = section.querySelector("[data-pdf-status]") || document.createElement("p");
    const url = requestedUrl(target);
    target.setAttribute("aria-busy", "true");
    status.textContent = "Preparing the PDF…";
    try {
      const response = await fetchPdf(url, status);
      const filename = filenameOf(response, url);
      save(await response.blob(), filename);
      status.textContent = `Downloaded ${filename}.`;
    } catch (problem) {
      window.location.assign(url.href); // the progress page says what went wrong and offers a retry
    } finally {
      target.removeAttribute("aria-busy");
    }
  }

  document.addEventListener("submit", (event) => {
    const form = event.target.closest("form[data-pdf-download]");
    if (!form) return;
    event.preventDefault();
    if (!form.getAttribute("aria-busy")) download(form);
  });

  document.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-pdf-download]");
    if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (!link.getAttribute("aria-busy")) download(link);
  });
})();
