"""Render helpers: forked once, kept warm between renders, replaced when lost, stopped by the time limit."""

import os
import time

import pytest

from lists import helpers
from lists.tasks import RenderFailed, time_limit


@pytest.fixture(autouse=True)
def no_helpers_left():
    helpers.stop()
    yield
    helpers.stop()


def running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_the_calls_after_the_first_run_in_a_helper_which_stays_for_the_next_render():
    here, there = helpers.map_alongside(os.getpid, [(), ()])
    again = helpers.map_alongside(os.getpid, [(), ()])

    assert here == os.getpid() and there != here
    assert again == [here, there]  # the same helper, still warm
    assert helpers.map_alongside(divmod, [(7, 2), (9, 4)]) == [(3, 1), (2, 1)]  # results in the order of the calls


def test_a_killed_helper_costs_no_render_and_is_replaced_on_the_next():
    _, lost = helpers.map_alongside(os.getpid, [(), ()])
    os.kill(lost, 9)
    while running(lost) and not os.waitpid(lost, os.WNOHANG)[0]:
        time.sleep(0.01)

    assert helpers.map_alongside(divmod, [(7, 2), (9, 4)]) == [(3, 1), (2, 1)]
    _, new = helpers.map_alongside(os.getpid, [(), ()])
    assert new not in (lost, os.getpid()) and running(new)


def test_a_helper_that_fails_says_why():
    with pytest.raises(helpers.HelperFailed, match="ValueError: invalid literal for int"):
        helpers.map_alongside(int, [("1",), ("one",)])


def test_the_time_limit_stops_the_helpers_work_at_once():
    _, helper = helpers.map_alongside(os.getpid, [(), ()])

    started = time.monotonic()
    with pytest.raises(RenderFailed, match="longer than 0.2 seconds"), time_limit(0.2):
        helpers.map_alongside(time.sleep, [(5,), (5,)])

    assert time.monotonic() - started < 2
    assert not running(helper)  # killed and reaped, not left sleeping on a render nobody waits for
