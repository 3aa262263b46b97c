"""Every answer whole, edits always seen, a damaged cache rebuilt, no process left
behind, errors a person can read, bad input a `bad_request` (issue 35, items 3 and
5-11). The provider runs as a real subprocess over real pipes throughout."""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from .conftest import REPO_ROOT, assert_schema_valid, host_env, query_when_ready, run_cli


def _repo(tmp_path: Path, files: dict[str, str], git: bool = False) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    if git:
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
        subprocess.run(
            ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"], check=True
        )
    return repo


def _db(home: Path) -> Path:
    (db,) = (home / ".cache" / "repo-graph").glob("*.sqlite3")
    return db


# -- 3. every answer whole ----------------------------------------------------------------


@pytest.mark.parametrize("blocking", [True, False], ids=["blocking", "non-blocking"])
def test_write_all_puts_every_byte_of_a_large_line_through_a_slow_pipe_while_children_exit(blocking):
    """The way it broke: a reader that takes little per read, another thread starting
    subprocesses (their exits interrupt a blocked write), lines far over a pipe's size.
    A descriptor a parent left non-blocking takes part of every such line, every time:
    the short write the blocking case meets only when a signal lands mid-write."""
    from repo_graph.transports.stdio import write_all

    read_fd, write_fd = os.pipe()
    os.set_blocking(write_fd, blocking)
    stop = threading.Event()

    def spawn():
        while not stop.is_set():
            subprocess.run(["true"])

    lines = [(json.dumps({"n": n, "pad": "x" * 300_000}) + "\n").encode() for n in range(20)]
    got = bytearray()

    def read():
        while chunk := os.read(read_fd, 64):
            got.extend(chunk)

    spawner, reader = threading.Thread(target=spawn), threading.Thread(target=read)
    spawner.start()
    reader.start()
    try:
        for line in lines:
            write_all(write_fd, line)
    finally:
        os.close(write_fd)
        stop.set()
        spawner.join()
        reader.join()
        os.close(read_fd)
    sent = b"".join(lines)
    assert len(got) == len(sent)  # ints: a failure here reports two numbers, not a diff of megabytes
    assert hashlib.sha256(bytes(got)).digest() == hashlib.sha256(sent).digest()


def test_r1_a_slow_host_under_load_gets_500_whole_answers_while_the_watcher_is_busy(
    tmp_path, provider_factory, envelope_validator
):
    body = "\n".join(f"    value_{i} = compute_{i}(argument_{i}) + adjust_{i}" for i in range(120))
    repo = _repo(
        tmp_path,
        {f"pkg/mod{n}.py": f"def handler_{n}(request):\n{body}\n    return value_0\n" for n in range(40)},
        git=True,
    )
    p = provider_factory(repo)
    assert p.query(goal="handler")["type"] == "frames"  # the first index is done; the watcher runs
    busy = threading.Event()

    def churn():  # every batch the watcher applies runs git (HEAD) in the provider
        n = 0
        while not busy.is_set():
            (repo / "pkg" / "churn.py").write_text(f"def churn_{n}():\n    return {n}\n")
            n += 1
            time.sleep(0.05)

    queries = 500

    def ask_all():
        for n in range(queries):
            p.send(
                {
                    "type": "query",
                    "id": f"q{n}",
                    "query": {
                        "goal": f"handler request value compute adjust {n % 40}",
                        "max_frames": 40,
                        "max_tokens": 40_000,
                    },
                }
            )

    churner, asker = threading.Thread(target=churn), threading.Thread(target=ask_all)
    churner.start()
    asker.start()
    big, pending = 0, b""
    try:
        for n in range(queries):
            while b"\n" not in pending:  # a slow host: small reads, a pause now and then
                chunk = p.proc.stdout.read1(4096)
                assert chunk, "the provider closed stdout"
                pending += chunk
                if len(pending) % 65536 < 4096:
                    time.sleep(0.001)
            head, _, pending = pending.partition(b"\n")
            envelope = json.loads(head)  # whole: one valid JSON object per line
            assert envelope["type"] == "frames" and envelope["id"] == f"q{n}", envelope.get("message")
            big += len(head) > 100_000
            if n % 50 == 0:
                assert_schema_valid(envelope_validator, envelope)
    finally:
        busy.set()
        churner.join()
        asker.join()
    assert big > queries // 2  # the answers were far larger than a pipe holds


# -- 5. an edit that keeps size and mtime ------------------------------------------------


def test_d1_an_edit_that_keeps_size_and_mtime_is_seen_across_restarts(tmp_path, home, provider_factory):
    repo = _repo(tmp_path, {"a.py": "def stamp_fn():\n    return 'AAAA'\n"})
    assert run_cli(home, "index", "--json", str(repo)).returncode == 0
    p = provider_factory(repo, args=["--no-watch"])
    frame = next(f for f in p.query(goal="stamp_fn")["result"]["frames"] if f["id"] == "a.py#stamp_fn")
    assert p.close() == 0
    st = (repo / "a.py").stat()
    with open(repo / "a.py", "r+") as fh:  # `cp -p` over it: same inode, same size, the old mtime put back
        fh.write("def stamp_fn():\n    return 'BBBB'\n")
    os.utime(repo / "a.py", ns=(st.st_atime_ns, st.st_mtime_ns))
    assert (repo / "a.py").stat().st_size == st.st_size and (repo / "a.py").stat().st_ino == st.st_ino
    p = provider_factory(repo, args=["--no-watch"])
    assert p.verify((frame["id"], frame["content_digest"])) == ["stale"]
    assert (
        "BBBB" in next(f for f in p.query(goal="stamp_fn")["result"]["frames"] if f["id"] == "a.py#stamp_fn")["content"]
    )
    assert p.close() == 0
    summary = json.loads(run_cli(home, "index", "--json", str(repo)).stdout)
    assert summary["unchanged"] == 1  # the provider already took the new bytes in


def test_an_edit_that_keeps_size_and_mtime_is_parsed_by_the_next_index(tmp_path, home):
    repo = _repo(tmp_path, {"a.py": "def stamp_fn():\n    return 'AAAA'\n", "b.py": "x = 1\n"})
    assert json.loads(run_cli(home, "index", "--json", str(repo)).stdout)["parsed"] == 2
    st = (repo / "a.py").stat()
    (repo / "a.py").write_text("def stamp_fn():\n    return 'BBBB'\n")
    os.utime(repo / "a.py", ns=(st.st_atime_ns, st.st_mtime_ns))
    summary = json.loads(run_cli(home, "index", "--json", str(repo)).stdout)
    assert (summary["parsed"], summary["unchanged"]) == (1, 1)


# -- 6. a damaged cache -----------------------------------------------------------------


def _damage(db: Path, how: str) -> None:
    data = bytearray(db.read_bytes())
    if how == "garbage":
        for at in range(4096, len(data), 4096):  # every page but the first
            data[at : at + 4096] = os.urandom(min(4096, len(data) - at))
    elif how == "truncated":
        data = data[: len(data) // 3]
    elif how == "header":
        data[:16] = b"not a database!!"
    db.write_bytes(bytes(data))


@pytest.mark.parametrize("how", ["garbage", "truncated", "header"])
def test_a_damaged_cache_is_set_aside_and_rebuilt_by_index(tmp_path, home, how):
    repo = _repo(tmp_path, {f"m{i}.py": f"def fn_{i}(x):\n    return fn_{(i + 1) % 30}(x)\n" for i in range(30)})
    assert run_cli(home, "index", str(repo)).returncode == 0
    for f in (home / ".cache" / "repo-graph").glob("*.sqlite3-*"):
        f.unlink()  # the WAL was checkpointed at close; what is left is the main file
    _damage(_db(home), how)
    done = run_cli(home, "index", "--json", str(repo))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    said = [line for line in done.stderr.splitlines() if "damaged" in line]
    assert len(said) == 1 and "moved it to" in said[0], done.stderr
    assert json.loads(done.stdout)["files"] == 30
    again = run_cli(home, "query", str(repo), "fn_3")
    assert again.returncode == 0 and "fn_3" in again.stdout and "damaged" not in again.stderr


def test_serve_on_a_damaged_cache_rebuilds_it_and_answers(tmp_path, home, provider_factory):
    """Its first page intact, the file passes the cheap check at open; the first
    query that reads a damaged page finds it out."""
    repo = _repo(tmp_path, {f"m{i}.py": f"def fn_{i}(x):\n    return fn_{(i + 1) % 30}(x)\n" for i in range(30)})
    assert run_cli(home, "index", str(repo)).returncode == 0
    _damage(_db(home), "garbage")
    p = provider_factory(repo, args=["--no-watch"])
    codes = []
    for _ in range(60):
        reply = p.query(goal="fn_3 fn_4")
        if reply["type"] == "frames" and reply["result"]["frames"]:
            break
        codes.append(reply.get("code"))
        time.sleep(0.5)
    else:
        pytest.fail(f"no answer after the cache was damaged: {codes}")
    assert set(codes) <= {"unavailable"}, codes  # never `internal`
    p.send({"type": "shutdown"})
    assert p.proc.wait(60) == 0
    stderr = p.proc.stderr.read().decode(errors="replace")
    assert "Traceback" not in stderr
    assert 1 <= len([line for line in stderr.splitlines() if "damaged" in line]) <= 2, stderr


# -- 7. no process outlives us ------------------------------------------------------------


def _children(pid: int) -> set[int]:
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _big_repo(tmp_path: Path) -> Path:
    """Over indexer.index.PARALLEL_MIN_BYTES: the first index starts parse workers."""
    body = "\n".join(f"    total_{i} = helper_{i}(data, option_{i}) * factor_{i}" for i in range(200))
    return _repo(tmp_path, {f"pkg/m{n}.py": f"def work_{n}(data):\n{body}\n    return total_0\n" for n in range(700)})


def _wait_for_workers(pid: int, at_least: int) -> set[int]:
    for _ in range(600):
        kids = _children(pid)
        if len(kids) >= at_least:
            return kids
        time.sleep(0.05)
    pytest.fail(f"the parse workers never started (children: {_children(pid)})")


def _wait_gone(pids: set[int]) -> None:
    for _ in range(600):  # a generous bound: they end within a second or two
        if not any(_alive(pid) for pid in pids):
            return
        time.sleep(0.05)
    pytest.fail(f"processes outlived their parent: {[pid for pid in pids if _alive(pid)]}")


@pytest.mark.parametrize("how", ["shutdown", "eof", "sigterm", "sigint"])
def test_r2_no_process_outlives_serve_stopped_during_its_first_index(tmp_path, provider_factory, how):
    p = provider_factory(_big_repo(tmp_path))
    p.handshake()
    kids = _wait_for_workers(p.proc.pid, 3)  # the tokenizer helper and two parse workers at least
    if how == "shutdown":
        p.send({"type": "shutdown"})
    elif how == "eof":
        p.proc.stdin.close()
    else:
        p.proc.send_signal(signal.SIGTERM if how == "sigterm" else signal.SIGINT)
    p.proc.wait(60)
    _wait_gone(kids | _children(p.proc.pid))
    stderr = p.proc.stderr.read().decode(errors="replace")
    assert "Traceback" not in stderr and "leaked" not in stderr, stderr


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_r2_a_signal_the_kernel_hands_to_another_thread_still_stops_serve(tmp_path, provider_factory, sig):
    """A process-directed signal may land on any thread that does not block it; on
    the indexer's, Python's handler waits for the main thread, blocked reading stdin
    from a host that sends nothing more. tgkill() puts it on such a thread for sure."""
    tgkill = getattr(ctypes.CDLL(None, use_errno=True), "tgkill", None)
    if tgkill is None:
        pytest.skip("this C library has no tgkill()")
    p = provider_factory(_big_repo(tmp_path))
    p.handshake()
    _wait_for_workers(p.proc.pid, 3)  # the first index is under way: its threads exist
    others = [int(t) for t in os.listdir(f"/proc/{p.proc.pid}/task") if int(t) != p.proc.pid]
    assert others, "serve runs no thread besides the main one"
    assert tgkill(p.proc.pid, others[0], sig) == 0, os.strerror(ctypes.get_errno())
    try:
        p.proc.wait(30)
    except subprocess.TimeoutExpired:
        pytest.fail(f"serve went on after {signal.Signals(sig).name} landed on thread {others[0]}")
    assert "Traceback" not in p.proc.stderr.read().decode(errors="replace")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_no_process_outlives_index_stopped_by_a_signal_and_one_line_says_so(tmp_path, home, sig):
    repo = _big_repo(tmp_path)
    proc = subprocess.Popen(
        [sys.executable, "-m", "repo_graph", "index", "--quiet", str(repo)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=host_env(home),
        cwd=str(REPO_ROOT),
    )
    kids = _wait_for_workers(proc.pid, 2)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    _wait_gone(kids)
    stderr = err.decode(errors="replace")
    assert proc.returncode == 128 + sig, stderr
    assert "Traceback" not in stderr and len(stderr.strip().splitlines()) == 1, stderr
    done = run_cli(home, "index", "--json", str(repo))  # the cache is consistent: the next run finishes it
    assert done.returncode == 0 and json.loads(done.stdout)["files"] == 700, done.stderr


def test_a_fast_shutdown_prints_no_traceback(tmp_path, provider_factory):
    p = provider_factory(_repo(tmp_path, {"a.py": "x = 1\n"}))
    p.send({"type": "shutdown"})
    assert p.proc.wait(60) == 0
    time.sleep(1)  # the tokenizer helper finds its parent gone now
    p.proc.stdout.read()
    assert "Traceback" not in p.proc.stderr.read().decode(errors="replace")


# -- 8. errors a person can read --------------------------------------------------------------


def test_an_unusable_cache_dir_is_one_line_naming_it(tmp_path, home):
    repo = _repo(tmp_path, {"a.py": "x = 1\n"})
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    done = run_cli(home, "index", "--cache-dir", str(blocker / "cache"), str(repo))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert str(blocker) in done.stderr


def test_serve_whose_cache_could_not_be_opened_opens_it_once_the_cause_is_mended(tmp_path, provider_factory):
    """An open that failed is not final: the answer names the cause, and a question
    after the user has mended it (here a file where the cache folder goes) is answered,
    with no restart of the host."""
    repo = _repo(tmp_path, {"a.py": "def mended_cache_function():\n    return 1\n"})
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    p = provider_factory(repo, args=["--cache-dir", str(blocker / "cache")])
    p.handshake()
    reply = p.query(goal="mended cache function")
    assert reply["type"] == "error" and reply["code"] == "unavailable", reply
    assert "cannot open the index" in reply["message"] and str(blocker) in reply["message"], reply
    blocker.unlink()
    reply = query_when_ready(p, goal="mended cache function")
    assert [f["id"] for f in reply["result"]["frames"]][:1] == ["a.py#mended_cache_function"], reply


@pytest.fixture
def tiny_disk(tmp_path):
    mount = tmp_path / "tiny"
    mount.mkdir()
    if (
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", str(mount)], capture_output=True).returncode
        != 0
    ):
        pytest.skip("mounting a small tmpfs needs root (it stands for a full disk)")
    yield mount
    subprocess.run(["umount", "-l", str(mount)])


def test_a_full_disk_is_one_line_naming_the_cause_and_the_file(tmp_path, home, tiny_disk):
    body = "\n".join(f"    name_{i} = other_{i}" for i in range(60))
    repo = _repo(tmp_path, {f"m{n}.py": f"def f_{n}():\n{body}\n" for n in range(300)})
    done = run_cli(home, "index", "--cache-dir", str(tiny_disk), str(repo))
    assert done.returncode == 1, done.stdout
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "full" in done.stderr and str(tiny_disk) in done.stderr


# -- 9. bad input is bad_request ----------------------------------------------------------------


def test_r1_bad_input_gets_bad_request_quoting_only_a_short_prefix(tmp_path, provider_factory):
    p = provider_factory(_repo(tmp_path, {"a.py": "def f():\n    pass\n"}))
    long_anchor = "d/" * 3000 + "x.py"
    for query in (
        {"anchors": [long_anchor]},
        {"anchors": ["a\0b"]},
        {"as_of": "2026-13-45T99:99:99Z"},
        {"kinds": ["x" * 10_000]},
    ):
        reply = p.query(**query)
        assert reply["type"] == "error" and reply["code"] == "bad_request", reply
        assert len(reply["message"]) < 400, reply["message"][:500]
    reply = p.ask({"type": "x" * 100_000})
    assert reply["code"] == "bad_request" and len(reply["message"]) < 400
    reply = p.ask(
        {
            "type": "verify",
            "request": {"frames": [{"provider_id": "repo-graph", "frame_id": "a.py\0#f", "content_digest": None}]},
        }
    )
    assert reply["code"] == "bad_request"
    for anchor in ("n" * 300, "d/" * 100 + "n" * 300, "a" * 255 + ".py"):  # too long for a file name: names nothing
        reply = p.query(goal="f", anchors=[anchor])
        assert reply["type"] == "frames", reply
    assert p.query(goal="f")["type"] == "frames"  # and serving goes on


def test_a_query_needs_no_handshake_on_any_transport(tmp_path, provider_factory):
    """Decided once (docs/protocol.md): over HTTP each POST stands alone, so a query
    is answered without a handshake before it, over stdio too."""
    p = provider_factory(_repo(tmp_path, {"a.py": "def f():\n    pass\n"}))
    assert p.query(goal="f")["type"] == "frames"


@pytest.mark.parametrize(
    "flags",
    [["--max-file-bytes", "-1"], ["--max-file-bytes", "0"], ["--jobs", "0"], ["--jobs", "-1"], ["--jobs", "two"]],
)
def test_bad_flags_are_a_usage_error(tmp_path, home, flags):
    repo = _repo(tmp_path, {"a.py": "x = 1\n"})
    for command in ("index", "serve"):
        done = run_cli(home, command, *flags, str(repo), timeout=60)
        assert done.returncode == 2 and "usage:" in done.stderr and "Traceback" not in done.stderr
    assert not (home / ".cache" / "repo-graph").exists()  # nothing was touched


# -- 10. counts that tell the truth -------------------------------------------------------------


def test_unreadable_files_and_directories_are_counted_and_named_once(tmp_path, home):
    repo = _repo(tmp_path, {"a.py": "x = 1\n", "locked.py": "y = 2\n", "closed/b.py": "z = 3\n", "notes.xyz": "?\n"})
    (repo / "locked.py").chmod(0)
    (repo / "closed").chmod(0)
    prefix = []
    if os.geteuid() == 0:  # root reads anything: drop the capabilities that let it (the files are root's, mode 0)
        if not shutil.which("setpriv"):
            pytest.skip("as root, an unreadable file needs setpriv (util-linux) to drop CAP_DAC_OVERRIDE")
        prefix = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--inh-caps", "-all", "--"]
    done = run_cli(home, "index", str(repo), prefix=prefix)
    assert done.returncode == 0, done.stderr
    files_line = next(line for line in done.stdout.splitlines() if line.strip().startswith("files"))
    assert "1 unreadable" in files_line and "1 without a parser" in files_line, files_line
    named = [line for line in done.stderr.splitlines() if "cannot list" in line]
    assert len(named) == 1 and "closed" in named[0], done.stderr


def test_files_deleted_during_an_index_are_counted_as_such(tmp_path):
    from indexer.index import RepoIndex

    big = "x = 1\n" * 200_000  # over one parse task each: the next file is read after the callback
    repo = _repo(tmp_path, {f"f{i}.py": big for i in range(4)})
    index = RepoIndex(repo, cache_dir=tmp_path / "cache", jobs=1, max_file_bytes=4 << 20)
    deleted = []

    def progress(done_bytes, total_bytes, done_files, total_files):
        if done_files == 1:
            (repo / "f3.py").unlink()
            deleted.append("f3.py")

    summary = index.refresh(progress=progress)
    index.close()
    assert deleted and (summary.vanished, summary.unreadable, summary.skipped, summary.files) == (1, 0, 0, 3)


# -- 11. a frame's relations cover its content ----------------------------------------------------


def test_g4_a_class_frame_carries_the_calls_of_its_methods(tmp_path, provider_factory):
    repo = _repo(
        tmp_path,
        {
            "src/main/java/app/Store.java": "package app;\n\npublic class Store {\n"
            "    public static String load(String key) {\n        return key;\n    }\n}\n",
            "src/main/java/app/Service.java": "package app;\n\npublic class Service {\n"
            "    public String run(String key) {\n        return Store.load(key);\n    }\n"
            "}\n",
        },
    )
    p = provider_factory(repo)
    store_uri = (repo / "src/main/java/app/Store.java").as_uri()
    frames = p.query(
        goal="the service", anchors=[(repo / "src/main/java/app/Service.java").as_uri()], max_frames=10, max_tokens=4000
    )["result"]["frames"]
    service = next(f for f in frames if f["id"] == "src/main/java/app/Service.java#Service")  # sent whole
    assert "Store.load" in service["content"]
    targets = {r["target_uri"].partition("#")[0] for r in service["relations"] if r["rel"] == "code.calls"}
    assert store_uri in targets, service["relations"]


def test_a_full_disk_while_serving_is_named_as_such_and_serving_goes_on(tmp_path, provider_factory, tiny_disk):
    body = "\n".join(f"    name_{i} = other_{i}" for i in range(60))
    repo = _repo(tmp_path, {f"m{n}.py": f"def f_{n}():\n{body}\n" for n in range(300)})
    p = provider_factory(repo, args=["--cache-dir", str(tiny_disk)])
    for _ in range(3):
        reply = p.query(goal="f_1 name_1", anchors=["m1.py"])
        assert reply["type"] == "frames" or reply["code"] == "unavailable", reply  # never `internal`
    p.send({"type": "shutdown"})
    assert p.proc.wait(60) == 0
    stderr = p.proc.stderr.read().decode(errors="replace")
    assert "full" in stderr and str(tiny_disk) in stderr, stderr
    assert "Traceback" not in stderr and "un-acquired" not in stderr, stderr
