"""A theatre list's army page shows the units it fields at its own prices.

Hand-checked against BA2 - Armies of Germany.cat (BSData/boltaction at d939efb): Panzer VI Ausf. H
'Tiger' (f7ff614f-04f2-a31b-fd9b-d37683a65c1e), Regular 395 pts, set to 244 while "1945: Last Levy"
(d256-0db4-5156-cf2a) is chosen.
"""

import re

import pytest

from lists.models import Army

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs")]


def tiger_prices(client, army_name: str) -> str:
    army = Army.objects.get(system__key="bolt-action-2e", name=army_name)
    page = client.get(f"/games/bolt-action-2e/armies/{army.key}/")
    assert page.status_code == 200
    html = page.content.decode()
    card = html[html.index("<h4>Panzer VI Ausf. H &#x27;Tiger&#x27;</h4>") :]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", card[: card.index("</p>")]))


def test_the_theatre_lists_page_prices_the_tiger_as_its_selector_sets(client):
    prices = tiger_prices(client, "1945: Last Levy (Armies of Germany)")
    assert "Regular 244 pts" in prices
    assert "395 elsewhere" in prices


def test_the_nations_own_page_keeps_the_entrys_price(client):
    prices = tiger_prices(client, "Armies of Germany")
    assert "Regular 395 pts" in prices
    assert "elsewhere" not in prices


def test_a_theatre_lists_page_is_not_empty(client):
    army = Army.objects.get(system__key="bolt-action-2e", name="1944: Normandy (Armies of Germany)")
    html = client.get(f"/games/bolt-action-2e/armies/{army.key}/").content.decode()
    assert "This army has no units" not in html
    assert "Heer Grenadier Squad" in html
