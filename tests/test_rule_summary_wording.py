"""Rule texts as players read them: a name of an order or a rule inside a summary stands in quotes, never
run into the sentence ("A German officer using You men, snap to action! may...")."""

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
SUMMARIES = ROOT / "lists" / "battlescribe" / "rule_summaries.yaml"
PACKS = ROOT / "lists" / "packs"
# An exclamation mark with the sentence going on after it ("snap to action! may", "action!, roll"): the end
# of a name like "You men, snap to action!" run into the text outside quotes (a name heading its part,
# "Avanti!: ...", is a label, not run in).
RUN_IN = re.compile(r"!(?=\s*[a-z,;)])")
QUOTED = re.compile(r"“[^”]*”|\"[^\"]*\"|‘[^’]*’")


def texts(node, where: str):
    """Every summary and reminder in a pack file or the summaries file, with where it is."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in {"summary", "reminder", "text"} and isinstance(value, str):
                yield f"{where}: {node.get('key', '')}", value
            else:
                yield from texts(value, where)
    elif isinstance(node, list):
        for value in node:
            yield from texts(value, where)


def all_texts():
    found = [
        (f"rule_summaries.yaml: {key}", value.get(field, ""))
        for key, value in yaml.safe_load(SUMMARIES.read_text()).items()
        for field in ("summary", "reminder")
    ]
    for path in sorted(PACKS.rglob("*.yaml")):
        found += list(texts(yaml.safe_load(path.read_text()), str(path.relative_to(PACKS))))
    return found


def test_no_summary_runs_a_rule_name_into_its_sentence():
    texts_found = all_texts()
    assert len(texts_found) > 1000  # the scan reads the packs' and the converter's summaries
    run_in = [(where, text) for where, text in texts_found if RUN_IN.search(QUOTED.sub("“”", text))]
    assert run_in == []


@pytest.mark.django_db
@pytest.mark.usefixtures("real_packs")
def test_the_blitzkrieg_rule_names_the_officers_order_in_quotes(client):
    html = client.get("/games/bolt-action-2e/armies/germany-1944-normandy/").content.decode()
    assert "A German officer using his “You men, snap to action!” ability may draw one more order die" in html
    assert "using You men" not in html
