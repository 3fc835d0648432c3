"""Zipped files are inflated with a bound: a tiny bzip2 or LZMA member never takes memory, whatever the header says.

Every zipped file (.rosz rosters from the home page, an event's submit form and validate_roster; .gstz/.catz
BattleScribe data) is read by lists/battlescribe/archives.py.
"""

import io
import struct
import tracemalloc
import zipfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from lists.battlescribe.archives import ArchiveRefused, read_single_member
from lists.battlescribe.reader import MAX_FILE_BYTES, DataError, parse
from lists.models import Roster
from lists.rosters.battlescribe_reading import BattleScribeRefused, unzip
from tests.test_events import create_event

INFLATED_BYTES = 64 * 1024 * 1024  # what each bomb holds: 128 times the cap on a roster
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "battlescribe"
HAND_MADE = FIXTURES / "germany-normandy-two-platoons.ros"
METHODS = {"bzip2": zipfile.ZIP_BZIP2, "LZMA": zipfile.ZIP_LZMA}


def bomb(method: int, member: str = "roster.ros") -> bytes:
    """A zip of one member that inflates to INFLATED_BYTES of a roster-looking XML."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive, archive.open(member, "w", force_zip64=True) as file:
        file.write(b"<roster>")
        block = b" " * (1024 * 1024)
        for _ in range(INFLATED_BYTES // len(block)):
            file.write(block)
    return buffer.getvalue()


@pytest.fixture(scope="module")
def bombs():
    return {name: bomb(method) for name, method in METHODS.items()}


def claiming_size(archive: bytes, claimed: int) -> bytes:
    """The archive with its one member's uncompressed size, in both headers, replaced by `claimed`."""
    data = bytearray(archive)
    local, central = data.index(b"PK\x03\x04"), data.index(b"PK\x01\x02")
    struct.pack_into("<I", data, local + 22, claimed)
    struct.pack_into("<I", data, central + 24, claimed)
    return bytes(data)


def deflated(content: bytes, member: str = "roster.ros") -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(member, content)
    return buffer.getvalue()


@pytest.mark.parametrize("method", METHODS)
def test_a_tiny_bzip2_or_lzma_rosz_is_refused_naming_its_compression_without_inflating_it(bombs, method):
    assert len(bombs[method]) < 64 * 1024
    tracemalloc.start()
    try:
        with pytest.raises(BattleScribeRefused, match=f"compressed with {method}; only stored or deflate"):
            unzip(bombs[method])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 * 1024 * 1024


def test_a_catalogue_is_refused_by_what_it_inflates_to_not_by_what_its_header_claims(tmp_path):
    catalogue = tmp_path / "Armies of Testland.catz"
    oversized = deflated(b"<catalogue>" + b" " * (MAX_FILE_BYTES + 1) + b"</catalogue>", "Armies of Testland.cat")
    for claimed in (100, MAX_FILE_BYTES - 1):
        catalogue.write_bytes(claiming_size(oversized, claimed))
        with pytest.raises(DataError, match="Armies of Testland.catz: "):
            parse(catalogue)


def test_a_catalogue_whose_header_claims_gigabytes_is_read_for_what_it_holds(tmp_path):
    catalogue = tmp_path / "Armies of Testland.catz"
    plain = (FIXTURES / "Armies of Testland.cat").read_bytes()
    catalogue.write_bytes(claiming_size(deflated(plain, "Armies of Testland.cat"), 2**32 - 1))
    assert parse(catalogue).tag == "catalogue"


def test_the_reader_takes_the_cap_it_is_given():
    archive = deflated(b"x" * 5000)
    assert read_single_member(archive, 5000) == b"x" * 5000
    with pytest.raises(ArchiveRefused, match="larger than 4999 bytes unzipped"):
        read_single_member(archive, 4999, what="data file")


@pytest.mark.django_db
@pytest.mark.usefixtures("real_packs")
@pytest.mark.parametrize("method", METHODS)
def test_a_bzip2_or_lzma_rosz_uploaded_on_the_home_page_gets_a_400_that_says_why(client, bombs, method):
    upload = SimpleUploadedFile("list.rosz", bombs[method], content_type="application/zip")
    response = client.post(reverse("lists:import"), {"file": upload})
    assert response.status_code == 400
    assert f"compressed with {method}" in response.content.decode()
    assert not Roster.objects.exists()


@pytest.mark.django_db
@pytest.mark.usefixtures("real_packs", "empty_cache")
@pytest.mark.parametrize("method", METHODS)
def test_a_bzip2_or_lzma_rosz_submitted_to_an_event_gets_a_400_that_says_why(client, bombs, method):
    _, public = create_event(client)
    upload = SimpleUploadedFile("list.rosz", bombs[method], content_type="application/zip")
    response = client.post(f"{public}submit/", {"player": "Mallory", "file": upload})
    assert response.status_code == 400
    assert f"compressed with {method}" in response.content.decode()


@pytest.mark.parametrize("method", METHODS)
def test_a_bzip2_or_lzma_catalogue_is_refused_by_the_data_loader(tmp_path, method):
    catalogue = tmp_path / "Armies of Testland.catz"
    catalogue.write_bytes(bomb(METHODS[method], "Armies of Testland.cat"))
    with pytest.raises(DataError, match=f"Armies of Testland.catz: .*compressed with {method}"):
        parse(catalogue)
