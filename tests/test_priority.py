"""Queries before background work: the indexer's pause points wait while a query is
answered, never in the query's own thread, and never longer than one bound."""

import threading
import time

from indexer import priority
from indexer.priority import Priority


def _give_way_in_thread(p: Priority) -> tuple[threading.Thread, threading.Event]:
    done = threading.Event()

    def run():
        p.give_way()
        done.set()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, done


def test_background_work_waits_while_a_query_is_answered():
    p = Priority()
    with p.answering():
        thread, done = _give_way_in_thread(p)
        assert not done.wait(0.2)  # held at its pause point
    assert done.wait(2)  # released as soon as the answer is out
    thread.join()


def test_no_wait_when_idle_or_in_the_querys_own_thread():
    p = Priority()
    started = time.monotonic()
    p.give_way()
    with p.answering():
        with p.answering():  # nested: a query that indexes an anchored file itself
            p.give_way()
        p.give_way()
    assert time.monotonic() - started < 0.1


def test_a_pause_is_bounded_so_queries_cannot_starve_the_indexer(monkeypatch):
    monkeypatch.setattr(priority, "GIVE_WAY_SECONDS", 0.1)
    p = Priority()
    with p.answering():
        thread, done = _give_way_in_thread(p)
        assert done.wait(2)
    thread.join()
