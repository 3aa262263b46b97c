"""Queries before background work: the indexer's pause points wait while a query is
answered, never in the query's own thread, and never longer than one bound.

No assertion here measures time: a pause is seen as a thread parked inside
`give_way` (its stack, not a clock), and the bound is shown by a pause that ends
while the query is still being answered. Every wait has a generous deadline."""

import sys
import threading

import pytest

from indexer import priority
from indexer.priority import Priority

DEADLINE = 30.0  # for an event that should come at once; only a broken rule waits it out


def _give_way_in_thread(p: Priority) -> tuple[threading.Thread, threading.Event]:
    done = threading.Event()

    def run():
        p.give_way()
        done.set()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, done


def _parked_in_give_way(thread: threading.Thread) -> bool:
    frame = sys._current_frames().get(thread.ident)
    names = set()
    while frame is not None:
        names.add(frame.f_code.co_name)
        frame = frame.f_back
    return "give_way" in names and "wait" in names


def _until(probe, what: str) -> None:
    ready = threading.Event()
    for _ in range(int(DEADLINE / 0.01)):
        if probe():
            return
        ready.wait(0.01)
    pytest.fail(f"never happened in {DEADLINE:.0f} s: {what}")


def test_background_work_waits_while_a_query_is_answered(monkeypatch):
    monkeypatch.setattr(priority, "GIVE_WAY_SECONDS", 3600.0)  # only the answer's end can release it
    p = Priority()
    with p.answering():
        thread, done = _give_way_in_thread(p)
        _until(lambda: done.is_set() or _parked_in_give_way(thread), "the background thread reaches its pause point")
        assert not done.is_set()  # held there while the query is answered
    assert done.wait(DEADLINE)  # released as soon as the answer is out
    thread.join()


def test_no_wait_when_idle_or_in_the_querys_own_thread(monkeypatch):
    monkeypatch.setattr(priority, "GIVE_WAY_SECONDS", 3600.0)  # a wait would outlast every deadline here
    p = Priority()
    done = threading.Event()

    def query_thread():
        p.give_way()  # idle: nothing to give way to
        with p.answering():
            with p.answering():  # nested: a query that indexes an anchored file itself
                p.give_way()
            p.give_way()
        done.set()

    thread = threading.Thread(target=query_thread, daemon=True)
    thread.start()
    assert done.wait(DEADLINE), "a query's own thread waited for itself"
    thread.join()


def test_a_pause_is_bounded_so_queries_cannot_starve_the_indexer(monkeypatch):
    monkeypatch.setattr(priority, "GIVE_WAY_SECONDS", 0.1)
    p = Priority()
    with p.answering():  # answered for as long as it takes: only the bound can release the pause
        thread, done = _give_way_in_thread(p)
        assert done.wait(DEADLINE), "the pause outlasted its bound"
    thread.join()


@pytest.mark.parametrize("fork", [True, False])
def test_parsers_run_below_the_priority_of_the_process_that_answers(fork):
    """[parsers-niced]: a parsing process yields the cores to the writer (which bounds a
    first index that answers meanwhile) and to the host's answers."""
    import os

    from indexer import pool

    executor = pool.start(1, fork=fork)
    try:
        parser = executor.submit(os.nice, 0).result(timeout=DEADLINE)
    finally:
        executor.shutdown()
    assert parser == os.nice(0) + pool.WORKER_NICENESS or parser == 19, (parser, os.nice(0))
