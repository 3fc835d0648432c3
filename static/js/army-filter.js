// The army pickers (the home page's army, an event's armies allowed): typing in a search box keeps only the
// armies (and their nations' groups) whose names hold every word typed. Without JavaScript the box stays
// hidden. Boxes are found when typed in, so a picker htmx puts in place works too.
(() => {
  const show = () => {
    for (const box of document.querySelectorAll("input.army-filter[hidden], input.game-filter[hidden]")) box.hidden = false;
  };
  show();
  document.addEventListener("htmx:afterSettle", show);
  // A list of games (the BattleScribe data sets) filters the same way, item by item.
  document.addEventListener("input", (event) => {
    const box = event.target;
    if (!(box instanceof HTMLInputElement) || !box.classList.contains("game-filter")) return;
    const list = document.getElementById(box.getAttribute("aria-controls"));
    const words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
    for (const item of list ? list.children : []) {
      item.hidden = !words.every((word) => item.textContent.toLowerCase().includes(word));
    }
  });
  document.addEventListener("input", (event) => {
    const box = event.target;
    if (!(box instanceof HTMLInputElement) || !box.classList.contains("army-filter")) return;
    const select = document.getElementById(box.getAttribute("aria-controls"));
    if (!select) return;
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
    // A single choice follows the search; armies picked in a multiple choice stay picked.
    if (!select.multiple && first && select.selectedOptions[0]?.hidden !== false) first.selected = true;
    followArmy(select);
  });
  // A force picker beside an army picker (select.army-forces, data-army naming it) offers only the chosen
  // army's forces: its groups of other armies are hidden and disabled, and a force of the army is chosen.
  // Without JavaScript every army's group stays, each labelled with its army; the server refuses a mismatch.
  const followArmy = (army) => {
    for (const forces of document.querySelectorAll(`select.army-forces[data-army="${army.id}"]`)) {
      let keep = null;
      for (const group of forces.querySelectorAll("optgroup")) {
        const mine = group.dataset.army === army.value;
        group.hidden = !mine;
        group.disabled = !mine;
        if (mine) keep = group;
      }
      if (keep && forces.selectedOptions[0]?.parentElement !== keep) keep.querySelector("option").selected = true;
    }
  };
  const followAll = () => {
    for (const forces of document.querySelectorAll("select.army-forces")) {
      const army = document.getElementById(forces.dataset.army);
      if (army) followArmy(army);
    }
  };
  followAll();
  document.addEventListener("htmx:afterSettle", followAll);
  document.addEventListener("change", (event) => {
    if (event.target instanceof HTMLSelectElement) followArmy(event.target);
  });
})();
