// The BattleScribe roster editor's conveniences; the page works without them (every form posts).
(() => {
  // A force's entries filter as you type: only those (and their categories) holding every word stay.
  const filter = (box) => {
    const list = document.getElementById(box.getAttribute("aria-controls"));
    if (!list) return;
    const words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
    for (const group of list.querySelectorAll(".pick-group")) {
      const heading = group.querySelector("h3").textContent.toLowerCase();
      let shown = 0;
      for (const item of group.querySelectorAll("li")) {
        const name = item.querySelector("button.offer") || item;  // not the text of its folded profiles
        const text = `${heading} ${name.textContent.toLowerCase()}`;
        item.hidden = !words.every((word) => text.includes(word));
        if (!item.hidden) shown += 1;
      }
      group.hidden = shown === 0;
    }
  };
  document.addEventListener("input", (event) => {
    if (event.target.classList && event.target.classList.contains("bs-search")) filter(event.target);
  });

  // A change swaps the whole roster: what the player was doing (focus, searches, scroll) is kept across it.
  let kept = { focus: null, searches: {}, open: {} };
  document.addEventListener("htmx:beforeSwap", () => {
    kept = { focus: document.activeElement && document.activeElement.id, searches: {}, open: {} };
    for (const box of document.querySelectorAll(".bs-search")) kept.searches[box.id] = box.value;
    for (const details of document.querySelectorAll("#bs-roster details[id]")) kept.open[details.id] = details.open;
  });
  document.addEventListener("htmx:afterSettle", () => {
    for (const [id, value] of Object.entries(kept.searches)) {
      const box = document.getElementById(id);
      if (box && value) { box.value = value; filter(box); }
    }
    for (const [id, open] of Object.entries(kept.open)) {
      const details = document.getElementById(id);
      if (details) details.open = open;
    }
    const problem = document.getElementById("bs-problem") || document.getElementById("bs-conflict");
    const target = problem || (kept.focus && document.getElementById(kept.focus));
    if (target) {
      if (problem) problem.tabIndex = -1;
      target.focus({ preventScroll: !problem });
    }
  });
})();
