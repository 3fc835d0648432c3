"""The text BattleScribe and New Recruit export, as players paste it into an e-mail or a forum post; both ways.

Their plain form: "++ Reinforced Platoon (Armies of the Soviet Union) [994pts] ++" heads a force (its
entry, its catalogue, its costs), "+ Infantry +" a category, "Guards Squad [135pts]: Panzerfaust" a unit
with the selections under it that hold nothing themselves, ". Regular NCO: SMG" (". . " deeper) a
selection that does, "9x " a number, "++ Total: [994pts] ++" the roster's costs. Their markdown form
says the same with "##"/"###" headings, "**bold**" names and "-"/"*" bullets indented by depth.

Reading gives the list's tree, each selection with its line, and the lines that are none of these
(told, never dropped); matching names to a game's data is `pasted_rosters`' work. Writing gives a
.ros roster (an element `battlescribe_reading.parse_xml` returns) in the same form. Every line is
read once, in time linear in its length. See docs/roster-format.md, "Text BattleScribe writes".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lists.rosters.battlescribe_reading import items, number_of

MAX_LINE = 2000  # characters read of one line: no list's line is longer
MAX_NESTING = 30  # selections nested deeper than any list's are told, not read (reading them recurses)
MAX_SELECTIONS = 20_000  # selections read in all: more than any list holds (the reader's units cap comes later)
POINTS_NAMES = ("pts", "points", "point", "pt")
FOOTERS = ("created with ", "exported with ", "made with ")  # "Created with BattleScribe (https://...)"

_ROSTER = re.compile(r"^\+\+\+\s*(.*?)\s*\+\+\+$")
_FORCE = re.compile(r"^\+\+\s*(.*?)\s*\+\+$")
_CATEGORY = re.compile(r"^\+\s*(.*?)\s*\+$")
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_BULLET = re.compile(r"^[-*•]\s+(.*)$")
_DOTS = re.compile(r"^(\.(?:\s*\.)*)\s+(.*)$")
_NUMBER = re.compile(r"^(\d{1,5})\s*[x×]\s+(\S.*)$")  # "9x Regular Soldier"
_COST = re.compile(r"^(-?[\d,]{1,12}(?:\.\d{1,6})?)\s*(\S.{0,40})$")  # "135pts", "5 PL", "1,990pts"


@dataclass
class PastedSelection:
    """One selection the text names: its entry's name, number, own costs as written, line, and what is under it."""

    name: str
    number: int
    costs: dict[str, float]
    line: int
    children: list[PastedSelection] = field(default_factory=list)
    category: str = ""  # the category heading it was listed under (units only)
    whole: str = ""  # the line read whole, where it has ": " (an entry named "Order Dice: 2")
    written: str = ""  # the name with its "2x ", where it had one (an entry named "2x M4 Sherman")
    raw: str = ""  # the text it was read from, costs and all

    def readings(self) -> list[PastedSelection]:
        """The ways to read the line, the likeliest first: as written; its "2x " part of the name; its ": " too."""
        found = [self]
        if self.written:
            found.append(PastedSelection(self.written, 1, self.costs, self.line, self.children, self.category))
        if self.whole:
            whole = _named(self.whole, self.line)
            whole.children = [child for child in self.children if child.line != self.line]  # not those after ": "
            whole.category = self.category
            found.append(whole)
        return found

    @property
    def points(self) -> float | None:
        return points_of(self.costs)


@dataclass
class PastedForce:
    name: str
    catalogue: str
    costs: dict[str, float]
    line: int
    selections: list[PastedSelection] = field(default_factory=list)


@dataclass
class PastedList:
    """The list a text holds, and the lines it holds that are not part of one ((line, text) pairs)."""

    name: str = ""
    game: str = ""  # the game system a New Recruit roster line names, if any
    costs: dict[str, float] = field(default_factory=dict)  # the roster's "Total" (else its heading's)
    forces: list[PastedForce] = field(default_factory=list)
    unread: list[tuple[int, str]] = field(default_factory=list)

    @property
    def total(self) -> float | None:
        """The list's own points: its total line's, else its forces' headings', else its units' sum."""
        if points_of(self.costs) is not None:
            return points_of(self.costs)
        headed = [points_of(force.costs) for force in self.forces]
        if headed and all(points is not None for points in headed):
            return sum(headed)
        units = [s.points for force in self.forces for s in force.selections if s.points is not None]
        return sum(units) if units else None


def points_of(costs: dict[str, float]) -> float | None:
    return next((costs[name] for name in POINTS_NAMES if name in costs), None)


def normal(text: str) -> str:
    """A name as compared: case, spacing and the typographic apostrophe aside."""
    return " ".join(text.casefold().replace("’", "'").split())


def names_entry(written: str, entry_name: str) -> bool:
    """Whether a name as the text writes it is an entry's: the same, or the entry's with a number the data's
    modifiers add to it ("Order Dice:  2" of an entry named "Order Dice: ")."""
    written, entry_name = normal(written), normal(entry_name)
    if written == entry_name:
        return True
    rest = written[len(entry_name) :] if entry_name and written.startswith(entry_name) else ""
    return bool(rest) and not rest.strip(" .:-()0123456789")


# --- reading -----------------------------------------------------------------


def looks_like_pasted_list(text: str) -> bool:
    """Whether text is a list BattleScribe or New Recruit exports: it has a force heading with its catalogue."""
    for line in text.splitlines()[:400]:
        kind, body, _ = _classify(line[:MAX_LINE])
        _, catalogue, costs = _heading_parts(body) if kind in ("force", "heading") else ("", "", {})
        if catalogue and (kind == "force" or costs):
            return True
    return False


def read_pasted_list(text: str) -> PastedList:
    """The list a text holds; a line that is not part of one is kept in `unread` with its number."""
    pasted = PastedList()
    lines = [(number, whole[:MAX_LINE]) for number, whole in enumerate(text.splitlines(), start=1)]
    classified = [(number, line, *_classify(line)) for number, line in lines]
    force_level = _force_level(classified)
    category = ""
    stack: list[PastedSelection] = []  # the selections the next deeper line may go under
    count = 0
    for number, line, kind, body, depth in classified:
        if kind == "heading":
            kind = _heading_kind(body, depth, force_level, pasted)
        if kind in ("blank", "footer"):
            continue
        if kind == "roster":
            pasted.name, pasted.game, costs = _heading_parts(body)
            pasted.costs = pasted.costs or costs
        elif kind == "force" and normal(body).startswith("total"):
            pasted.costs = read_costs(body.partition("[")[2].rstrip("]"))
        elif kind == "force":
            name, catalogue, costs = _heading_parts(body)
            pasted.forces.append(PastedForce(name, catalogue, costs, number))
            category, stack = "", []
        elif kind == "category":
            category, stack = body, []
        elif not pasted.forces or depth > MAX_NESTING:
            pasted.unread.append((number, line.strip()))
        else:
            count += 1
            if count > MAX_SELECTIONS:
                pasted.unread.append((number, "the rest of the text: more selections than any list holds"))
                break
            _add_selection(pasted.forces[-1], stack, read_selection(body, number), depth, category)
    return pasted


def _force_level(classified: list) -> int | None:
    """The markdown heading level of forces: the shallowest naming a catalogue, unless one such heading
    alone heads the text above deeper ones (the roster's "# Name (Game)"), then the next."""
    levels = [depth for _, _, kind, body, depth in classified if kind == "heading" and _heading_parts(body)[1]]
    if not levels:
        return None
    top = min(levels)
    deeper = [level for level in levels if level > top]
    return min(deeper) if levels.count(top) == 1 and deeper and levels[0] == top else top


def _classify(line: str) -> tuple[str, str, int]:
    """A line's kind (blank, footer, roster, force, category, heading, selection), its text, its depth."""
    stripped = line.strip()
    indent = len(line) - len(line.lstrip())
    if not stripped:
        return "blank", "", 0
    heading = _HEADING.match(stripped)
    text = (heading.group(2) if heading else stripped).replace("**", "").replace("__", "").strip()
    for kind, pattern in (("roster", _ROSTER), ("force", _FORCE), ("category", _CATEGORY)):
        found = pattern.match(text)
        if found and found.group(1):
            return kind, found.group(1), 0
    if heading:
        return "heading", text, len(heading.group(1))
    if text.casefold().startswith(FOOTERS):
        return "footer", text, 0
    bullet = _BULLET.match(text)
    if bullet:
        return "selection", bullet.group(1).strip(), indent // 2 + 1
    dots = _DOTS.match(text)
    if dots:
        return "selection", dots.group(2).strip(), dots.group(1).count(".")
    return "selection", text, 0


def _heading_kind(body: str, level: int, force_level: int | None, pasted: PastedList) -> str:
    """A markdown heading: the roster's (above the forces' level), a force, its total, or a category."""
    if normal(body).startswith("total"):
        return "force"
    if force_level is not None and level < force_level and not pasted.forces:
        return "roster"
    if level == force_level and _heading_parts(body)[1]:
        return "force"
    if level == 1 and not pasted.forces and not pasted.name:
        return "roster"
    return "category"


def _heading_parts(body: str) -> tuple[str, str, dict[str, float]]:
    """ "Reinforced Platoon (Armies of Germany) [529pts]": the name, the bracketed catalogue, the costs."""
    costs: dict[str, float] = {}
    text = body.strip()
    if text.endswith("]") and "[" in text:
        start = text.rindex("[")
        costs = read_costs(text[start + 1 : -1])
        text = text[:start].rstrip()
    if not text.endswith(")"):
        return text, "", costs
    depth = 0
    for index in range(len(text) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(text[index], 0)
        if depth == 0:
            return text[:index].rstrip(), text[index + 1 : -1].strip(), costs
    return text, "", costs


def read_costs(text: str) -> dict[str, float]:
    """ "5 PL, 90pts" -> {"pl": 5, "pts": 90}; "1,990pts" keeps its thousands separator out."""
    costs: dict[str, float] = {}
    for part in text.split(", "):
        found = _COST.match(part.strip())
        if found:
            try:
                costs[found.group(2).strip().casefold()] = float(found.group(1).replace(",", ""))
            except ValueError:
                continue
    return costs


def read_selection(body: str, line: int) -> PastedSelection:
    """ "2x Name [10pts]: Child, 3x Other": the selection with the childless ones written after it."""
    head, _, rest = body.partition(": ")
    if head.endswith(":") and not rest:
        head = head[:-1]
    selection = _named(head.strip(), line)
    for part in (p.strip() for p in rest.split(", ") if rest):
        if part:
            selection.children.append(_named(part, line))
    if rest:
        selection.whole = body.strip()
    return selection


def _named(text: str, line: int) -> PastedSelection:
    raw = text
    costs: dict[str, float] = {}
    if text.endswith("]") and " [" in text:
        start = text.rindex(" [")
        costs = read_costs(text[start + 2 : -1])
        text = text[:start]
    counted = _NUMBER.match(text)
    if counted:
        return PastedSelection(
            counted.group(2).strip(), int(counted.group(1)), costs, line, written=text.strip(), raw=raw
        )
    return PastedSelection(text.strip(), 1, costs, line, raw=raw)


def regrouped(children: list[PastedSelection], names: set[str]) -> list[PastedSelection]:
    """Children written after ": " joined again where an entry's own name holds ", " ("1x M16 rifle team,
    1x M113"), `names` being the (normal) names offered there; the longest run of at most 8 first."""
    found, index = [], 0
    while index < len(children):
        for end in range(min(len(children), index + 8), index + 1, -1):
            run = children[index:end]
            if any(child.line != run[0].line or not child.raw for child in run):
                continue
            joined = _named(", ".join(child.raw for child in run), run[0].line)
            if any(normal(reading.name) in names for reading in joined.readings()):
                found.append(joined)
                index = end
                break
        else:
            found.append(children[index])
            index += 1
    return found


def _add_selection(force: PastedForce, stack: list, selection: PastedSelection, depth: int, category: str) -> None:
    """Under the selection one level up (the nearest there is, for a line indented too deep), else a unit."""
    del stack[depth:]
    if depth == 0 or not stack:
        selection.category = category
        force.selections.append(selection)
        stack[:] = [selection]
        return
    stack[-1].children.append(selection)
    stack.append(selection)


# --- writing -----------------------------------------------------------------


def pasted_text_of(root, markdown: bool = False) -> str:
    """A .ros roster element (namespaces dropped) as BattleScribe's text export: plain, or markdown."""
    lines: list[str] = []
    game = root.get("gameSystemName") or ""
    totals: dict[str, float] = {}
    heading = f"{root.get('name') or 'Roster'} ({game})" if game else root.get("name") or "Roster"
    forces = _all_forces(root)
    for force in forces:
        for selection in items(force, "selections", "selection"):
            _add_costs(totals, subtree_costs(selection))
    lines += [_heading(heading, totals, "+++", markdown, 1), ""]
    for force in forces:
        costs: dict[str, float] = {}
        for selection in items(force, "selections", "selection"):
            _add_costs(costs, subtree_costs(selection))
        name = f"{force.get('name') or 'Force'} ({force.get('catalogueName') or ''})"
        lines += [_heading(name, costs, "++", markdown, 2), ""]
        for category, selections in _by_category(force):
            lines += [f"### {category}" if markdown else f"+ {category} +", ""]
            for selection in selections:
                lines += _selection_lines(selection, 0, markdown)
                lines.append("")
    lines += [_heading("Total:", totals, "++", markdown, 2), ""]
    return "\n".join(lines)


def _heading(text: str, costs: dict[str, float], marks: str, markdown: bool, level: int) -> str:
    shown = f"{text} [{costs_text(costs)}]" if costs else text
    return f"{'#' * level} {shown}" if markdown else f"{marks} {shown} {marks}"


def costs_text(costs: dict[str, float]) -> str:
    """{"pts": 1990} -> "1,990pts"; other cost types after a space ("5 PL")."""
    shown = []
    for name, value in costs.items():
        number = f"{int(value):,}" if float(value).is_integer() else f"{value:,}"
        shown.append(f"{number}{name}" if name in POINTS_NAMES else f"{number} {name}")
    return ", ".join(shown)


def _all_forces(root) -> list:
    found, pending = [], items(root, "forces", "force")[::-1]
    while pending:
        force = pending.pop()
        found.append(force)
        pending.extend(items(force, "forces", "force")[::-1])
    return found


def _by_category(force) -> list[tuple[str, list]]:
    """The force's selections by their primary category, in the order the categories are first met."""
    grouped: dict[str, list] = {}
    for selection in items(force, "selections", "selection"):
        categories = items(selection, "categories", "category")
        primary = next((c for c in categories if c.get("primary") == "true"), None)
        grouped.setdefault((primary.get("name") if primary is not None else None) or "No Category", []).append(
            selection
        )
    return list(grouped.items())


def subtree_costs(selection) -> dict[str, float]:
    """A selection's costs with all under it, by cost name, the zero ones left out."""
    costs: dict[str, float] = {}
    pending = [selection]
    while pending:
        node = pending.pop()
        for cost in items(node, "costs", "cost"):
            try:
                value = float(cost.get("value") or 0)
            except ValueError:
                continue
            name = (cost.get("name") or "").strip()
            if value and name:
                costs[name] = costs.get(name, 0.0) + value
        pending.extend(items(node, "selections", "selection"))
    return costs


def _add_costs(into: dict[str, float], costs: dict[str, float]) -> None:
    for name, value in costs.items():
        into[name] = into.get(name, 0.0) + value


def _selection_lines(selection, depth: int, markdown: bool) -> list[str]:
    """A selection's line (with its childless children after ": ") and, indented, those that hold more."""
    children = items(selection, "selections", "selection")
    inline = [_named_text(child) for child in children if not items(child, "selections", "selection")]
    nested = [child for child in children if items(child, "selections", "selection")]
    costs = subtree_costs(selection) if depth == 0 else {}
    name = _named_text(selection)
    if markdown:
        name = f"**{name}**" if depth == 0 else name
    text = name + (f" [{costs_text(costs)}]" if costs else "") + (": " + ", ".join(inline) if inline else "")
    if depth:
        text = ("  " * (depth - 1) + "- " if markdown else ". " * depth) + text
    lines = [text]
    for child in nested:
        lines += _selection_lines(child, depth + 1, markdown)
    return lines


def _named_text(selection) -> str:
    number = number_of(selection)
    name = " ".join((selection.get("name") or "").split())
    return f"{number}x {name}" if number > 1 else name
