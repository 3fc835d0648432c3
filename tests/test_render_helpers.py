"""Render helpers: forked once, kept warm between renders, sharing calls out as they come free,
replaced when lost, stopped by the time limit."""

import multiprocessing
import os
import time

import pytest

from lists.cards import render_helpers
from lists.pdfs.tasks import RenderFailed, time_limit


@pytest.fixture(autouse=True)
def no_helpers_left():
    render_helpers.stop()
    BOTH_CALLS.reset()
    yield
    render_helpers.stop()


def running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


# Two calls meet here before either returns, so one runs in this process and one in the helper, however
# slowly the helper's feeder starts (the helpers are forked after this, and share it).
BOTH_CALLS = multiprocessing.Barrier(2, timeout=30)


def pid_once_both_run() -> int:
    BOTH_CALLS.wait()
    return os.getpid()


def fails_in_a_helper(worker: int) -> int:
    BOTH_CALLS.wait()
    if os.getpid() != worker:
        raise ValueError("no such unit")
    return 1


def test_calls_are_shared_with_a_helper_which_stays_for_the_next_render():
    first = render_helpers.map_shared(pid_once_both_run, [(), ()], 1)
    again = render_helpers.map_shared(pid_once_both_run, [(), ()], 1)

    assert os.getpid() in first and len(set(first)) == 2  # one call here, one in the helper
    assert set(again) == set(first)  # the same helper, still warm
    assert render_helpers.map_shared(divmod, [(7, 2), (9, 4), (11, 3)], 1) == [
        (3, 1),
        (2, 1),
        (3, 2),
    ]  # in the calls' order


def test_a_killed_helper_costs_no_render_and_is_replaced_on_the_next():
    (lost,) = set(render_helpers.map_shared(pid_once_both_run, [(), ()], 1)) - {os.getpid()}
    os.kill(lost, 9)
    while running(lost) and not os.waitpid(lost, os.WNOHANG)[0]:
        time.sleep(0.01)

    assert render_helpers.map_shared(divmod, [(7, 2), (9, 4)], 1) == [(3, 1), (2, 1)]
    (new,) = set(render_helpers.map_shared(pid_once_both_run, [(), ()], 1)) - {os.getpid()}
    assert new != lost and running(new)


def test_a_helper_that_fails_says_why():
    with pytest.raises(render_helpers.HelperFailed, match="ValueError: no such unit"):
        render_helpers.map_shared(fails_in_a_helper, [(os.getpid(),), (os.getpid(),)], 1)


def test_the_time_limit_stops_the_helpers_work_at_once():
    (helper,) = set(render_helpers.map_shared(pid_once_both_run, [(), ()], 1)) - {os.getpid()}

    started = time.monotonic()
    with pytest.raises(RenderFailed, match="longer than 0.2 seconds"), time_limit(0.2):
        render_helpers.map_shared(time.sleep, [(5,), (5,)], 1)

    assert time.monotonic() - started < 5  # stopped, not left to sleep its 5 s out
    assert not running(helper)  # killed and reaped, not left sleeping on a render nobody waits for


def test_helpers_forked_with_other_templates_are_replaced_before_they_render():
    """A deploy (or a test) that changes the templates: a helper forked before would print the old look."""
    (old,) = set(render_helpers.map_shared(pid_once_both_run, [(), ()], 1, state="templates v1")) - {os.getpid()}
    (new,) = set(render_helpers.map_shared(pid_once_both_run, [(), ()], 1, state="templates v2")) - {os.getpid()}

    assert new != old and not running(old)
