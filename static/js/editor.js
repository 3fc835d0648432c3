// The add-unit list filters as you type (the list itself works without JavaScript).
function filterUnits(input) {
  const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
  const list = document.getElementById(input.getAttribute("aria-controls"));
  let shown = 0;
  for (const group of list.querySelectorAll(".pick-group")) {
    const heading = group.querySelector("h3").textContent.toLowerCase();
    let inGroup = 0;
    for (const item of group.querySelectorAll("li")) {
      const text = heading + " " + item.textContent.toLowerCase();
      item.hidden = !words.every((word) => text.includes(word));
      if (!item.hidden) inGroup += 1;
    }
    group.hidden = inGroup === 0;
    shown += inGroup;
  }
  document.getElementById("unit-matches").textContent = words.length ? `${shown} unit${shown === 1 ? "" : "s"} match` : "";
}

document.addEventListener("input", (event) => {
  if (event.target.id === "unit-search") filterUnits(event.target);
});

// The search field is shown only where this script runs; it comes back with each new roster fragment.
function showSearch() {
  for (const box of document.querySelectorAll(".add-unit .search[hidden]")) box.hidden = false;
}
document.addEventListener("DOMContentLoaded", showSearch);
document.addEventListener("htmx:afterSettle", showSearch);
