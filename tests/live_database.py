"""The suite's database is in memory, so the live server's threads use the test thread's one SQLite connection
(Django shares it with them). A worker pass run in the test's thread and a request served at the same moment would
interleave their transactions on it ("cannot start a transaction within a transaction"): here transactions take
turns. Only outermost-and-nested `atomic` blocks are serialised; autocommit reads (a long-poll's look-ups) never
wait, so a request held open for a render cannot block the worker it waits for."""

import threading

import pytest
from django.db.transaction import Atomic

_one_transaction_at_a_time = threading.RLock()  # re-entrant: a thread's nested atomic blocks pass
_enter, _exit = Atomic.__enter__, Atomic.__exit__


def _enter_in_turn(self):
    _one_transaction_at_a_time.acquire()
    try:
        return _enter(self)
    except BaseException:
        _one_transaction_at_a_time.release()
        raise


def _exit_in_turn(self, exc_type, exc_value, traceback):
    try:
        return _exit(self, exc_type, exc_value, traceback)
    finally:
        _one_transaction_at_a_time.release()


@pytest.fixture
def transactions_in_turn(monkeypatch):
    """While the test runs, each thread's transaction on the shared connection waits for the other's to end."""
    monkeypatch.setattr(Atomic, "__enter__", _enter_in_turn)
    monkeypatch.setattr(Atomic, "__exit__", _exit_in_turn)
