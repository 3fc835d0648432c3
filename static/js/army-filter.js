// The army choice of the home page: typing in the search box keeps only the armies (and their
// nations' groups) whose names hold every word typed. Without JavaScript the box stays hidden.
(() => {
  const box = document.getElementById("army-filter");
  const select = document.getElementById("id_army");
  if (!box || !select) return;
  box.hidden = false;
  box.addEventListener("input", () => {
    const words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
    let first = null;
    for (const group of select.querySelectorAll("optgroup")) {
      let shown = 0;
      for (const option of group.querySelectorAll("option")) {
        const text = `${group.label} ${option.textContent}`.toLowerCase();
        option.hidden = !words.every((word) => text.includes(word));
        if (!option.hidden) { shown += 1; first = first || option; }
      }
      group.hidden = shown === 0;
    }
    if (first && select.selectedOptions[0]?.hidden !== false) first.selected = true;
  });
})();
