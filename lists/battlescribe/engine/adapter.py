"""The conformance suite's JSON-lines adapter protocol over this engine.

`ProtocolAdapter.handle` answers one command (a dict) with one response (a dict); `serve` runs the
loop on text streams, one JSON object per line, echoing each command's `corrId`. Only protocol
lines go to the output stream; diagnostics go to stderr.
"""

from __future__ import annotations

import json
import sys
import traceback
from collections.abc import Callable
from typing import IO, Any

from . import roster_files
from .elements import Force, Selection
from .gamedata import GameData
from .loading import load_protocol_data
from .options import find_option
from .roster import Roster
from .state import roster_state
from .validation import roster_errors
from .xml_loading import load_data_files

Message = dict[str, Any]
PROTOCOL_VERSION = "1.1"


class ProtocolError(Exception):
    """A command the adapter cannot carry out."""


class ProtocolAdapter:
    """One engine session: set up with game data, then driven by actions."""

    def __init__(self) -> None:
        self.data: GameData | None = None
        self.roster: Roster | None = None
        self.spec_id = "New Roster"

    def handle(self, command: Message) -> Message:
        """The response to one command."""
        kind = command.get("type")
        handler: Callable[[Message], Message] | None = getattr(self, f"on_{kind}", None)
        if handler is None:
            response: Message = {"type": "error", "message": f"{kind} is not supported by this adapter"}
        else:
            try:
                response = handler(command)
            except Exception as error:  # noqa: BLE001 - every failure becomes a protocol answer
                traceback.print_exc(file=sys.stderr)
                if kind == "action":
                    response = {"type": "actionResult", "ok": False, "error": f"{type(error).__name__}: {error}"}
                else:
                    response = {"type": "error", "message": f"{type(error).__name__}: {error}"}
        if "corrId" in command:
            response["corrId"] = command["corrId"]
        return response

    # --- session -----------------------------------------------------------------------------

    def on_describe(self, command: Message) -> Message:
        """Who this adapter is and what it can do."""
        return {
            "type": "describeResult",
            "name": "battlescribe",
            "version": "1.0",
            "protocolVersion": PROTOCOL_VERSION,
            "domains": ["roster"],
            "capabilities": {"screenshot": False, "record": False, "rosterXml": True, "maxParallel": 0},
        }

    def on_setup(self, command: Message) -> Message:
        """Load the game system and catalogues from the protocol's structures."""
        self.spec_id = command.get("specId") or self.spec_id
        self.data = load_protocol_data(command.get("gameSystem") or {}, command.get("catalogues") or [])
        self.roster = Roster(self.data, self.spec_id)
        return {"type": "setupResult", "errors": []}

    def on_setupFromFiles(self, command: Message) -> Message:  # noqa: N802 - the protocol's name
        """Load the game system and catalogues from .gst/.cat file contents."""
        self.spec_id = command.get("specId") or self.spec_id
        files = [(f.get("fileName", ""), f.get("content", "")) for f in command.get("files") or []]
        self.data = load_data_files(files)
        self.roster = Roster(self.data, self.spec_id)
        return {"type": "setupResult", "errors": []}

    def on_teardown(self, command: Message) -> Message:
        """Forget the session."""
        self.data, self.roster = None, None
        return {"type": "teardownResult"}

    def on_getState(self, command: Message) -> Message:  # noqa: N802 - the protocol's name
        """The roster's state."""
        return roster_state(self.session())

    def on_getErrors(self, command: Message) -> Message:  # noqa: N802 - the protocol's name
        """The roster's validation errors."""
        return {"type": "errors", "errors": [e.as_protocol() for e in roster_errors(self.session())]}

    def on_exportRosterXml(self, command: Message) -> Message:  # noqa: N802 - the protocol's name
        """The roster as a .ros file."""
        return {"type": "rosterXmlResult", "xml": roster_files.write_roster_xml(self.session())}

    def session(self) -> Roster:
        """The roster being built."""
        if self.roster is None:
            raise ProtocolError("No setup has been received")
        return self.roster

    # --- actions -----------------------------------------------------------------------------

    def on_action(self, command: Message) -> Message:
        """Carry out one roster action."""
        name = command.get("action", "")
        action: Callable[[Roster, Message], Message | None] | None = getattr(self, f"act_{name}", None)
        if action is None:
            raise ProtocolError(f"Unknown action: {name}")
        outputs = action(self.session(), command)
        response: Message = {"type": "actionResult", "ok": True}
        if outputs:
            response["outputs"] = outputs
        return response

    def act_addForce(self, roster: Roster, command: Message) -> Message:  # noqa: N802
        """Add a top-level force."""
        force = roster.add_force(command["forceEntryId"], command.get("catalogueId"))
        return {"forceId": force.id, "selections": selection_map(force.selections)}

    def act_addChildForce(self, roster: Roster, command: Message) -> Message:  # noqa: N802
        """Add a force inside a force."""
        parent = roster.find_force(command["forceId"])
        force = roster.add_force(command["forceEntryId"], command.get("catalogueId"), parent)
        return {"forceId": force.id, "selections": selection_map(force.selections)}

    def act_removeForce(self, roster: Roster, command: Message) -> None:  # noqa: N802
        """Remove a force."""
        roster.remove_force(roster.find_force(command["forceId"]))

    def act_selectEntry(self, roster: Roster, command: Message) -> Message:  # noqa: N802
        """Select an entry at a force's root."""
        force = roster.find_force(command["forceId"])
        return self.select(roster, force, command["entryId"])

    def act_selectChildEntry(self, roster: Roster, command: Message) -> Message:  # noqa: N802
        """Select an entry under a selection."""
        force = roster.find_force(command["forceId"])
        parent = roster.find_selection(command["selectionId"], force)
        return self.select(roster, parent, command["entryId"])

    def select(self, roster: Roster, parent: Force | Selection, entry_id: str) -> Message:
        """Select an option found by id under a parent."""
        option = find_option(roster.options_under(parent), entry_id)
        if option is None:
            raise ProtocolError(f"Entry '{entry_id}' not found")
        selection = roster.select(parent, option)
        return {"selectionId": selection.id, "selections": selection_map(selection.children)}

    def act_deselectSelection(self, roster: Roster, command: Message) -> None:  # noqa: N802
        """Remove a selection."""
        force = roster.find_force(command["forceId"])
        roster.deselect(roster.find_selection(command["selectionId"], force))

    def act_setSelectionCount(self, roster: Roster, command: Message) -> None:  # noqa: N802
        """Set how many of a selection there are."""
        force = roster.find_force(command["forceId"])
        roster.set_count(roster.find_selection(command["selectionId"], force), int(command["count"]))

    def act_duplicateSelection(self, roster: Roster, command: Message) -> Message:  # noqa: N802
        """Copy a selection."""
        force = roster.find_force(command["forceId"])
        copy = roster.duplicate(roster.find_selection(command["selectionId"], force))
        return {"selectionId": copy.id}

    def act_duplicateForce(self, roster: Roster, command: Message) -> Message:  # noqa: N802
        """Copy a force."""
        copy = roster_files.duplicate_force(roster, roster.find_force(command["forceId"]))
        return {"forceId": copy.id}

    def act_setCostLimit(self, roster: Roster, command: Message) -> None:  # noqa: N802
        """Set a cost limit."""
        roster.set_cost_limit(command["costTypeId"], float(command["value"]))

    def act_setCustomization(self, roster: Roster, command: Message) -> None:  # noqa: N802
        """Set the custom name and notes of a force, a selection or a force's category."""
        force = roster.find_force(command["forceId"])
        target: Any = force
        if command.get("categoryEntryId"):
            target = next(c for c in force.categories if c.entry_id == command["categoryEntryId"])
        elif command.get("selectionId"):
            target = roster.find_selection(command["selectionId"], force)
        if command.get("customName") is not None:
            target.custom_name = command["customName"]
        if command.get("customNotes") is not None:
            target.custom_notes = command["customNotes"]

    def act_loadRoster(self, roster: Roster, command: Message) -> None:  # noqa: N802
        """Replace the roster with one read from .ros XML."""
        self.roster = roster_files.read_roster_xml(roster.data, command.get("xml") or command.get("content") or "")

    def act_reload(self, roster: Roster, command: Message) -> None:  # noqa: N802
        """Write the roster to .ros XML and read it straight back."""
        self.roster = roster_files.read_roster_xml(roster.data, roster_files.write_roster_xml(roster))


def selection_map(selections: list[Selection]) -> dict[str, str]:
    """Entry id to selection id for selections and everything under them."""
    found: dict[str, str] = {}
    for top in selections:
        for selection in top.walk():
            found[selection.entry_id] = selection.id
    return found


def serve(stdin: IO[str], stdout: IO[str]) -> None:
    """Answer protocol commands line by line until the input ends."""
    adapter = ProtocolAdapter()
    for line in stdin:
        if not line.strip():
            continue
        try:
            command = json.loads(line)
        except json.JSONDecodeError as error:
            response: Message = {"type": "error", "message": f"Bad JSON: {error}"}
        else:
            response = adapter.handle(command)
        stdout.write(json.dumps(response, separators=(",", ":")) + "\n")
        stdout.flush()


def main() -> None:
    """Run the adapter on stdin and stdout."""
    serve(sys.stdin, sys.stdout)


if __name__ == "__main__":
    main()
