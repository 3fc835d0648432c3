"""The assertions of the conformance suite's expected states, checked against a protocol state."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

Message = dict[str, Any]


class Checker:
    """Collects what differs between an expected state and the state an adapter gave."""

    def __init__(self, step: int) -> None:
        self.step = step
        self.failures: list[str] = []

    def fail(self, text: str) -> None:
        """Record a difference."""
        self.failures.append(f"Step {self.step}: {text}")

    def equal(self, what: str, expected: Any, actual: Any) -> None:
        """Record a difference if two values differ (numbers compare as decimals)."""
        if isinstance(expected, int | float) and not isinstance(expected, bool) and isinstance(actual, int | float):
            if Decimal(str(expected)) != Decimal(str(actual)):
                self.fail(f"{what}: expected {expected} but got {actual}")
            return
        if expected != actual:
            self.fail(f"{what}: expected {expected!r} but got {actual!r}")

    def costs(self, what: str, expected: list[Message], actual: list[Message]) -> None:
        """Costs matched by type id (or name); no more costs than expected."""
        for cost in expected:
            key = cost.get("typeId") or cost.get("name")
            field = "typeId" if cost.get("typeId") else "name"
            found = next((c for c in actual if c.get(field) == key), None)
            if found is None:
                self.fail(f"{what} cost type '{key}' not found")
                continue
            if "value" in cost:
                self.equal(f"{what}.cost[{key}].value", cost["value"], found.get("value"))
            if "hidden" in cost:
                self.equal(f"{what}.cost[{key}].hidden", cost["hidden"], found.get("hidden", False))
        if len(actual) > len(expected):
            self.fail(f"{what} expected {len(expected)} cost(s) but got {len(actual)}: {actual}")

    def state(self, expected: Message, state: Message, errors: list[Message], data_source: bool) -> None:
        """Every assertion of an expected state."""
        forces = state.get("forces") or []
        if "forceCount" in expected:
            self.equal("forceCount", expected["forceCount"], len(forces))
        if "costCount" in expected:
            self.equal("costCount", expected["costCount"], len(state.get("costs") or []))
        if "costs" in expected:
            self.costs("roster", expected["costs"], state.get("costs") or [])
        limits = state.get("costLimits") or []
        if "costLimitCount" in expected:
            self.equal("costLimitCount", expected["costLimitCount"], len(limits))
        if "costLimits" in expected:
            self.costs("roster.costLimits", expected["costLimits"], limits)
        for key in ("gameSystemName", "gameSystemId", "name"):
            if key in expected:
                self.equal(key, expected[key], state.get(key) or "")
        if "forces" in expected:
            self.force_list("", expected["forces"], forces)
        if "selectionCount" in expected:
            self.equal("totalSelectionCount", expected["selectionCount"], sum(len(f["selections"]) for f in forces))
        self.errors(expected, errors, data_source)

    def force_list(self, prefix: str, expected: list[Message], actual: list[Message]) -> None:
        """Forces by position."""
        for index, want in enumerate(expected):
            if index >= len(actual):
                self.fail(f"{prefix}force[{index}] expected but only {len(actual)} forces")
                continue
            self.force(f"{prefix}force[{index}]", want, actual[index])
        if len(actual) > len(expected):
            self.fail(f"{prefix}expected {len(expected)} forces but got {len(actual)}")

    def force(self, what: str, want: Message, got: Message) -> None:
        """One force's assertions."""
        for key in (
            "name",
            "entryId",
            "publicationId",
            "page",
            "catalogueName",
            "catalogueId",
            "customName",
            "customNotes",
        ):
            if key in want:
                self.equal(f"{what}.{key}", want[key], got.get(key) or "")
        if "selectionCount" in want:
            self.equal(f"{what}.selectionCount", want["selectionCount"], len(got["selections"]))
        if "availableEntryCount" in want:
            self.equal(f"{what}.availableEntryCount", want["availableEntryCount"], got.get("availableEntryCount"))
        self.equal(f"{what}.hidden", want.get("hidden", False), got.get("hidden", False))
        children = got.get("childForces") or []
        if "childForceCount" in want:
            self.equal(f"{what}.childForceCount", want["childForceCount"], len(children))
        if "childForces" in want:
            self.force_list(f"{what}.child", want["childForces"], children)
        if "selections" in want:
            self.selections(what, want["selections"], got["selections"])
        if "profiles" in want:
            self.profiles(what, want["profiles"], got.get("profiles") or [])
        if "rules" in want:
            self.rules(what, want["rules"], got.get("rules") or [])
        if "categoryCount" in want:
            self.equal(f"{what}.categoryCount", want["categoryCount"], len(got.get("categories") or []))
        if "categories" in want:
            self.categories(what, want["categories"], got.get("categories") or [])
        if "publications" in want:
            self.publications(what, want["publications"], got.get("publications") or [])

    def selections(self, prefix: str, expected: list[Message], actual: list[Message]) -> None:
        """Selections by position, recursively."""
        for index, want in enumerate(expected):
            if index >= len(actual):
                self.fail(f"{prefix}.selection[{index}] expected but only {len(actual)} selections")
                continue
            got = actual[index]
            what = f"{prefix}.selection[{index}]"
            for key in ("name", "type", "number"):
                if key in want:
                    self.equal(f"{what}.{key}", want[key], got.get(key))
            self.equal(f"{what}.hidden", want.get("hidden", False), got.get("hidden", False))
            for key in (
                "entryId",
                "page",
                "publicationId",
                "publicationName",
                "entryGroupId",
                "customName",
                "customNotes",
            ):
                if key in want:
                    self.equal(f"{what}.{key}", want[key], got.get(key) or ("" if key != "page" else None))
            if "costs" in want:
                self.costs(what, want["costs"], got.get("costs") or [])
            if "profiles" in want:
                self.profiles(what, want["profiles"], got.get("profiles") or [])
            if "rules" in want:
                self.rules(what, want["rules"], got.get("rules") or [])
            if "categories" in want:
                self.categories(what, want["categories"], got.get("categories") or [])
            if "children" in want:
                self.selections(what, want["children"], got.get("children") or [])
            if "childCount" in want:
                self.equal(f"{what}.childCount", want["childCount"], len(got.get("children") or []))
        if len(actual) > len(expected):
            self.fail(f"{prefix} expected {len(expected)} selections but got {len(actual)}")

    def named(
        self, kind: str, what: str, expected: list[Message], actual: list[Message], keys: tuple[str, ...]
    ) -> list[tuple[Message, Message, str]]:
        """Items matched by their key fields (in order) or by position; reports missing and extra ones."""
        pairs = []
        for index, want in enumerate(expected):
            key = next((k for k in keys if want.get(k) is not None), None)
            if key is not None:
                got = next((a for a in actual if a.get(key) == want[key]), None)
            else:
                got = actual[index] if index < len(actual) else None
            label = f"{what}.{kind}[{want.get(key) if key else index}]"
            if got is None:
                self.fail(f"{label} not found (have {len(actual)})")
                continue
            pairs.append((want, got, label))
        if len(actual) > len(expected):
            self.fail(f"{what} expected {len(expected)} {kind}s but got {len(actual)}")
        return pairs

    def profiles(self, what: str, expected: list[Message], actual: list[Message]) -> None:
        """Profiles by name."""
        for want, got, label in self.named("profile", what, expected, actual, ("name",)):
            for key in ("typeName", "typeId"):
                if key in want:
                    self.equal(f"{label}.{key}", want[key], got.get(key))
            self.equal(f"{label}.hidden", want.get("hidden", False), got.get("hidden", False))
            for key in ("page", "publicationId"):
                if key in want:
                    self.equal(f"{label}.{key}", want[key], got.get(key) or "")
            for characteristic in want.get("characteristics") or []:
                found = next(
                    (c for c in got.get("characteristics") or [] if c.get("name") == characteristic.get("name")), None
                )
                if found is None:
                    self.fail(f"{label}.characteristic[{characteristic.get('name')}] not found")
                    continue
                for key in ("value", "typeId"):
                    if key in characteristic:
                        self.equal(
                            f"{label}.characteristic[{characteristic.get('name')}].{key}",
                            characteristic[key],
                            found.get(key),
                        )

    def rules(self, what: str, expected: list[Message], actual: list[Message]) -> None:
        """Rules by name."""
        for want, got, label in self.named("rule", what, expected, actual, ("name",)):
            if "description" in want:
                self.equal(f"{label}.description", want["description"], got.get("description"))
            self.equal(f"{label}.hidden", want.get("hidden", False), got.get("hidden", False))
            for key in ("page", "publicationId"):
                if key in want:
                    self.equal(f"{label}.{key}", want[key], got.get(key) or "")

    def categories(self, what: str, expected: list[Message], actual: list[Message]) -> None:
        """Categories by entry id, else name."""
        for want, got, label in self.named("category", what, expected, actual, ("entryId", "name")):
            if "name" in want and "entryId" in want:
                self.equal(f"{label}.name", want["name"], got.get("name"))
            if "primary" in want:
                self.equal(f"{label}.primary", want["primary"], got.get("primary"))
            if "profiles" in want:
                self.profiles(label, want["profiles"], got.get("profiles") or [])
            if "rules" in want:
                self.rules(label, want["rules"], got.get("rules") or [])
            for key in ("publicationId", "page", "customName", "customNotes"):
                if key in want:
                    self.equal(f"{label}.{key}", want[key], got.get(key) or "")

    def publications(self, what: str, expected: list[Message], actual: list[Message]) -> None:
        """Publications by id, else name."""
        for want, got, label in self.named("publication", what, expected, actual, ("id", "name")):
            if "name" in want and "id" in want:
                self.equal(f"{label}.name", want["name"], got.get("name"))

    def errors(self, expected: Message, errors: list[Message], data_source: bool) -> None:
        """Errors: an exact set, a subset, a count, or (by default) none."""
        if "errors" in expected and "errorsContain" in expected:
            self.fail("'errors' and 'errorsContain' are mutually exclusive")
            return
        if "errors" in expected:
            self.match_errors(expected["errors"] or [], errors, exact=True)
        elif "errorsContain" in expected:
            self.match_errors(expected["errorsContain"] or [], errors, exact=False)
        elif "errorCount" in expected:
            if len(errors) != expected["errorCount"]:
                self.fail(
                    f"expected {expected['errorCount']} error(s) but got {len(errors)}: {describe_errors(errors)}"
                )
        elif not data_source and errors:
            self.fail(f"expected no errors (default) but got {len(errors)}: {describe_errors(errors)}")

    def match_errors(self, assertions: list[Message], errors: list[Message], exact: bool) -> None:
        """Each assertion matches a different error; with `exact`, no error is left over."""
        used: set[int] = set()
        for assertion in assertions:
            on = str(assertion.get("on", assertion.get(True, "")))
            owner_type, _, owner_entry = on.partition(" ")
            entry_id, _, constraint_id = str(assertion.get("from", "")).partition("/")
            contains = assertion.get("messageContains")
            for index, error in enumerate(errors):
                if index in used:
                    continue
                if (
                    error.get("ownerType") == owner_type
                    and (not owner_entry or error.get("ownerEntryId") == owner_entry)
                    and error.get("entryId") == entry_id
                    and error.get("constraintId") == constraint_id
                    and (contains is None or contains.lower() in (error.get("message") or "").lower())
                ):
                    used.add(index)
                    break
            else:
                self.fail(
                    f"expected error [on='{on}', from='{assertion.get('from')}'] not found in: {describe_errors(errors)}"
                )
        if exact and len(errors) != len(assertions):
            self.fail(f"expected {len(assertions)} error(s) but got {len(errors)}: {describe_errors(errors)}")


def describe_errors(errors: list[Message]) -> str:
    """Errors in one line, as `on <- from`."""
    parts = []
    for error in errors:
        on = error.get("ownerType", "?") + (f" {error['ownerEntryId']}" if error.get("ownerEntryId") else "")
        parts.append(f"{on} <- {error.get('entryId')}/{error.get('constraintId')}")
    return "[" + "; ".join(parts) + "]"
