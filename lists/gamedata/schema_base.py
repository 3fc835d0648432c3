"""What every section of the pack schema shares: the value types, the strict base model, citations."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

Key = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=80)]
Name = Annotated[str, StringConstraints(min_length=1, max_length=200)]
Text = Annotated[str, StringConstraints(max_length=4000)]
Year = Annotated[int, Field(ge=1900, le=1960)]
# The id of the BattleScribe entry a converted item comes from (provenance, shown in the API).
SourceId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9-]{1,80}$")]
# A range band: inches, "table" (anything on the table) or null where the source prints n/a.
RangeValue = int | Literal["table"] | None

ModelRole = Literal["officer", "nco", "soldier", "crew", "loader", "spotter", "vehicle", "gun", "team", "hero"]
CategoryKind = Literal["headquarters", "infantry", "team", "artillery", "vehicle", "transport", "other"]

UnitKind = Literal["infantry", "team", "artillery", "vehicle", "transport", "aircraft", "boat", "other"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class SourceRef(Strict):
    """Where a fact or rule comes from: a document key and a section or table."""

    document: Key
    section: Name
    entry: Name | None = None


class Citation(Strict):
    """A public source for a figure the source documents lack (a point cost, say)."""

    source: Name
    entry: Name
    extra_model: Name | None = None  # where the cost of each extra model (per_extra_model) comes from
    url: Name | None = None
