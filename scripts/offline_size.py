"""Print what a device keeps for offline use of a 400-unit roster, and its size.

The same answers the service worker keeps (static/js/service-worker.js): the
share page, roster.yaml, the cards and list PDFs, and once per device the home
page, "my rosters", the offline page and the static files. Runs against a
throwaway SQLite database, like scripts/bench.py.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
TMP = Path(tempfile.mkdtemp(prefix="armybuilder-offline-"))
os.environ["DJANGO_SQLITE_PATH"] = str(TMP / "offline.sqlite3")
os.environ.setdefault("DJANGO_DEBUG", "1")
os.environ["DJANGO_ALLOWED_HOSTS"] = "testserver"  # the test client's host
os.environ["ARMYBUILDER_CACHE_DIR"] = str(TMP / "cache")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}

# The 400-unit roster of scripts/bench.py: five kinds of Bolt Action units, repeated.
MIX = [
    "{unit: Regular Infantry Section (Mid-/ Late-War), quality: Regular, size: 8, options: [Light machine gun]}",
    "{unit: Medium Mortar Team, quality: Regular, options: [Spotter]}",
    "{unit: M4 Sherman 75MM, quality: Veteran}",
    "{unit: Second Lieutenant, quality: Regular}",
    "{unit: Sniper Team, quality: Veteran}",
]


def body(client: Client, path: str) -> bytes:
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return b"".join(response.streaming_content) if response.streaming else response.content


def main() -> None:
    call_command("migrate", verbosity=0)
    from lists.gamedata.packs import load_all
    from lists.rosters.files import load_roster_file, save_new_roster
    from lists.rosters.sharing import hash_secret, new_edit_secret, new_share_id

    load_all(settings.PACKS_DIR)
    units = "".join(f"  - {MIX[i % len(MIX)]}\n" for i in range(400))
    text = f"game: bolt-action-2e\narmy: generic\nname: Four hundred\nunits:\n{units}".encode()
    roster = save_new_roster(load_roster_file(text), new_share_id(), hash_secret(new_edit_secret()))
    client = Client()
    share = f"/r/{roster.share_id}/"
    per_roster = {
        "share page": share,
        "roster.yaml": f"{share}roster.yaml",
        "unit cards (PDF)": f"{share}cards.pdf?card=poker&paper=a4",
        "organiser's list (PDF)": f"{share}list.pdf",
    }
    worker = body(client, "/sw.js").decode()
    config = json.loads(re.match(r"const CONFIG = (\{.*\});\n", worker).group(1))
    per_device = {"home page": "/", "my rosters (share links)": "/rosters/mine/kept/", "offline page": "/offline/"}
    per_device |= {url.rsplit("/", 1)[1]: url for url in config["staticFiles"]}

    print(f"Kept for one roster of {roster.units.count()} units")
    roster_total = sum(line(label, len(body(client, path))) for label, path in per_roster.items())
    line("total per roster", roster_total)
    print("Kept once per device")
    device_total = sum(line(label, len(body(client, path))) for label, path in per_device.items())
    line("total per device", device_total)
    line("all kept with this roster", roster_total + device_total)


def line(label: str, size: int) -> int:
    print(f"  {label:<38} {size / 1024:>8.1f} kB")
    return size


if __name__ == "__main__":
    main()
