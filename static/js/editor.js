// The editor's conveniences; every one of them is an extra: the page works without JavaScript.

// The add-unit list filters as you type: each word typed must begin a word of a unit's name, its slot or its
// search terms (or, from four letters, stand anywhere in one), whatever the accents and hyphens.
function searchWords(text) {
  const plain = text
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/ß/g, "ss")
    .replace(/([aou])e/g, "$1");
  const words = new Set();
  for (const chunk of plain.split(/\s+/)) {
    const joined = chunk.replace(/[^a-z0-9]/g, "");
    if (joined) words.add(joined);
    for (const part of chunk.split(/[^a-z0-9]+/)) if (part) words.add(part);
  }
  return [...words];
}

function matches(typed, words) {
  return words.some((word) => word.startsWith(typed) || (typed.length >= 4 && word.includes(typed)));
}

function filterUnits(input) {
  const typed = searchWords(input.value);
  const list = document.getElementById(input.getAttribute("aria-controls"));
  if (!list) return;
  let shown = 0;
  for (const group of list.querySelectorAll(".pick-group")) {
    const heading = group.querySelector("h3").textContent;
    let inGroup = 0;
    for (const item of group.querySelectorAll("li")) {
      const words = searchWords(`${heading} ${item.textContent} ${item.dataset.terms || ""}`);
      item.hidden = !typed.every((word) => matches(word, words));
      if (!item.hidden) inGroup += 1;
    }
    group.hidden = inGroup === 0;
    shown += inGroup;
  }
  document.getElementById("unit-matches").textContent = typed.length ? `${shown} unit${shown === 1 ? "" : "s"} match` : "";
}

document.addEventListener("input", (event) => {
  if (event.target.id === "unit-search") filterUnits(event.target);
});

// What a swap of the whole roster would lose is kept across it: the picker's search and scroll, the open units.
const kept = { search: "", listScroll: 0, open: new Set() };

document.addEventListener(
  "toggle",
  (event) => {
    const unit = event.target.closest && event.target.closest("article.unit");
    if (!unit || event.target.parentElement !== unit) return;
    if (event.target.open) kept.open.add(unit.id);
    else kept.open.delete(unit.id);
  },
  true,
);

document.addEventListener("htmx:beforeSwap", () => {
  const search = document.getElementById("unit-search");
  const list = document.getElementById("unit-list");
  if (search) kept.search = search.value;
  if (list) kept.listScroll = list.scrollTop;
});

document.addEventListener("htmx:afterSwap", () => {
  const search = document.getElementById("unit-search");
  const list = document.getElementById("unit-list");
  if (search && kept.search && !search.value) {
    search.value = kept.search;
    filterUnits(search);
  }
  if (list) list.scrollTop = kept.listScroll;
  for (const id of kept.open) {
    const details = document.querySelector(`#${CSS.escape(id)} > details`);
    if (details) details.open = true;
  }
});

// After an add: the new unit comes into view, highlighted and announced; focus stays on the picker's button.
function showAdded() {
  const added = document.querySelector("article.unit[data-added]");
  if (!added) return;
  added.removeAttribute("data-added");
  kept.open.add(added.id);
  // Its name row in view: a unit opened taller than the screen is brought in by its top, not its bottom.
  const tall = added.getBoundingClientRect().height > window.innerHeight * 0.8;
  added.scrollIntoView({ block: tall ? "start" : "nearest" });
  const name = added.querySelector("h2").textContent;
  const points = added.querySelector(".unit-status .points").textContent;
  announce(`Added ${name} (${points}).`);
  setTimeout(() => added.classList.remove("added"), 2500);
}

function announce(text) {
  const status = document.getElementById("editor-status");
  if (status) status.textContent = text;
}

// A stale edit's notice is fixed in view and focused, so it is read where the player is looking.
function showConflict() {
  const notice = document.getElementById("conflict");
  if (!notice || notice.dataset.shown) return;
  notice.dataset.shown = "1";
  notice.classList.add("floating");
  for (const button of notice.querySelectorAll("[data-dismiss]")) button.hidden = false;
  notice.focus({ preventScroll: true });
}

document.addEventListener("click", (event) => {
  const dismiss = event.target.closest("[data-dismiss]");
  if (dismiss) document.querySelector(dismiss.dataset.dismiss)?.remove();
  const step = event.target.closest("button.step");
  if (step) stepCount(step);
  // A link to a unit (from the summary's findings) opens it.
  const link = event.target.closest("a[href^='#unit-']");
  if (link) openUnit(link.getAttribute("href").slice(1));
});

function openUnit(id) {
  const unit = id.startsWith("unit-") && document.getElementById(id);
  const details = unit && unit.querySelector(":scope > details");
  if (details) details.open = true;
}

// Steppers: − / + change the count at once and save it when the clicking stops.
const stepTimers = new WeakMap();
function stepCount(button) {
  const input = document.getElementById(button.getAttribute("aria-controls"));
  if (!input) return;
  if (input.value === "" && input.placeholder) input.value = input.placeholder;
  if (Number(button.dataset.step) > 0) input.stepUp();
  else input.stepDown();
  clearTimeout(stepTimers.get(input));
  stepTimers.set(
    input,
    setTimeout(() => input.dispatchEvent(new Event("change", { bubbles: true })), 350),
  );
}

// A unit's form saves itself on change; its Save button (for keyboards and no-script pages) must not post it
// a second time as a whole page: it sends the same htmx save, unless one is already on its way.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form.getAttribute("hx-trigger") !== "change") return;
  event.preventDefault();
  savedFrom = form.closest("article")?.id;
  if (!form.classList.contains("htmx-request")) htmx.trigger(form, "change");
});

// After Save, a refused field gets the focus (and so comes into view) with its message.
let savedFrom = null;
function focusRefused() {
  if (!savedFrom) return;
  const refused = document.querySelector(`#${CSS.escape(savedFrom)} [aria-invalid="true"]`);
  savedFrom = null;
  if (refused) refused.focus();
}

// Nothing typed is lost: what is typed into a unit's form is kept in this tab until it is saved,
// and a reload saves what was kept.
const DRAFT = "editor-draft:";
function draftKey(form) {
  return DRAFT + form.getAttribute("hx-post");
}

document.addEventListener("input", (event) => {
  const form = event.target.closest("form.unit-form");
  if (!form || !event.target.name) return;
  const draft = JSON.parse(sessionStorage.getItem(draftKey(form)) || "{}");
  draft[event.target.name] = event.target.type === "checkbox" ? event.target.checked : event.target.value;
  sessionStorage.setItem(draftKey(form), JSON.stringify(draft));
});

document.addEventListener("htmx:afterRequest", (event) => {
  const form = event.detail.elt;
  if (form.matches && form.matches("form.unit-form") && event.detail.successful) {
    sessionStorage.removeItem(draftKey(form));
  }
});

function restoreDrafts() {
  const restored = [];
  for (const form of document.querySelectorAll("form.unit-form")) {
    const draft = JSON.parse(sessionStorage.getItem(draftKey(form)) || "null");
    if (!draft) continue;
    let changed = false;
    for (const [name, value] of Object.entries(draft)) {
      const input = form.elements.namedItem(name);
      if (!input || !input.type) continue;
      if (input.type === "checkbox" ? input.checked !== value : input.value !== value) {
        if (input.type === "checkbox") input.checked = value;
        else input.value = value;
        changed = true;
      }
    }
    if (!changed) {
      sessionStorage.removeItem(draftKey(form));
      continue;
    }
    form.closest("details").open = true;
    const label = form.elements.namedItem("label");
    restored.push((label && label.value) || form.closest("article").querySelector("h2").textContent);
    htmx.trigger(form, "change");
  }
  if (restored.length) announce(`Saved what was typed before the page reloaded: ${restored.join(", ")}.`);
}

// The parts that only work with this script show themselves; they come back with each new roster fragment.
function enhance() {
  for (const hidden of document.querySelectorAll(".add-unit .search[hidden], button.step[hidden]")) hidden.hidden = false;
  showAdded();
  showConflict();
  focusRefused();
}

document.addEventListener("DOMContentLoaded", () => {
  enhance();
  restoreDrafts();
  openUnit(location.hash.slice(1));
});
document.addEventListener("htmx:afterSettle", enhance);
