"""The JSON API: games, armies, units with points, weapons with full profiles, rules, ranks, qualities."""

import pytest

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_packs")]


def get(client, url):
    response = client.get(url)
    assert response.status_code == 200, url
    assert response["Content-Type"] == "application/json"
    return response.json()


def test_the_api_walks_from_the_index_to_every_game(client):
    games = get(client, get(client, "/api/")["games"])

    assert {g["name"] for g in games} == {
        "Bolt Action (2nd edition)",
        "Action All Fronts",
        "Heroes All",
        "Rapid Fire: Molesly Club House Rules",
    }
    game = get(client, next(g["url"] for g in games if g["key"] == "bolt-action-2e"))
    assert game["version"] == "1.0.0"
    assert len(game["content_hash"]) == 64
    assert "Generic Reinforced Platoon" in {organisation["name"] for organisation in game["organisations"]}


def test_a_bolt_action_weapon_has_its_full_profile(client):
    weapon = get(client, "/api/games/bolt-action-2e/weapons/light-howitzer/")

    assert weapon["name"] == "Light howitzer"
    assert weapon["range"] == 48
    assert weapon["indirect_range"] == {"min": 24, "max": 60}
    assert weapon["shots"] == "1"
    assert weapon["he"] == '2"'
    assert [r["name"] for r in weapon["rules"]] == ["Team", "Fixed", "Howitzer", "HE"]
    assert weapon["category"]["name"] == "Light howitzer"
    rule = get(client, weapon["rules"][0]["url"])
    assert rule["name"] == "Team" and len(rule["text"]) > 50


def test_heroes_all_weapons_keep_their_range_bands_and_attack_values(client):
    weapons = get(client, "/api/games/heroes-all/weapons/")
    class3 = next(w for w in weapons if w["name"] == "Class 3 AT gun")

    assert class3["range_bands"] == {"short": 24, "effective": 48, "long": 60}
    assert class3["attack"] == {"short": "+14", "effective": "+11", "long": "+3"}


def test_action_all_fronts_weapons_keep_power_and_type(client):
    weapon = get(client, "/api/games/action-all-fronts/weapons/hmg/")

    assert (weapon["range"], weapon["power"], weapon["type"]) == (30, 4, "HMG4 Support")


def test_an_army_lists_its_units_with_points_and_links(client):
    army = get(client, "/api/games/action-all-fronts/armies/british/")

    squad = next(u for u in army["units"] if u["name"] == "Rifle Squad")
    assert squad["points"] == 86
    detail = get(client, squad["url"])
    assert [(m["count"], m["name"], m["fs"], m["morale"]) for m in detail["composition"]] == [
        (1, "NCO", 3, 7),
        (5, "Soldier", 3, 7),
        (1, "LMG team", 3, 7),
    ]
    assert detail["composition"][0]["weapons"][0]["name"] == "Rifle"


def test_bolt_action_units_give_points_by_quality_with_their_citation(client):
    unit = get(client, "/api/games/bolt-action-2e/units/second-lieutenant/")

    assert unit["points_by_quality"] == {"Inexperienced": 35, "Regular": 50, "Veteran": 65}
    assert all(q["citation"]["source"] == "BSData/boltaction" for q in unit["qualities"])


def test_ranks_and_qualities(client):
    ranks = get(client, "/api/games/bolt-action-2e/officer-ranks/")
    qualities = get(client, "/api/games/bolt-action-2e/qualities/")

    assert [(r["name"], r["morale_bonus"], r["extra_orders"], r["order_range"]) for r in ranks] == [
        ("Second Lieutenant", 1, 1, 6),
        ("First Lieutenant", 2, 2, 6),
        ("Captain", 3, 3, 12),
        ("Major", 4, 4, 12),
    ]
    assert [(q["name"], q["morale"], q["damage_value"]) for q in qualities] == [
        ("Inexperienced", 8, "3+"),
        ("Regular", 9, "4+"),
        ("Veteran", 10, "5+"),
    ]


def test_unknown_things_are_404(client):
    assert client.get("/api/games/nope/").status_code == 404
    assert client.get("/api/games/bolt-action-2e/weapons/nope/").status_code == 404


def test_a_unit_detail_takes_a_fixed_number_of_queries(client, django_assert_max_num_queries):
    with django_assert_max_num_queries(12):
        response = client.get("/api/games/action-all-fronts/units/german-panzer-grenadier-squad/")

    assert response.json()["name"] == "Panzer Grenadier squad"
