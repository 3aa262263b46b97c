"""`repo-graph mcp` driven by the official MCP SDK's own client over real pipes
(stdio_client, StdioServerParameters, ClientSession), in the client's legacy
(initialize) mode and in its default (discover, then the 2026 era), with the
environment reduced to PATH and HOME as a strict host leaves it. Results are
re-counted with the tokenizer, citations re-hashed from the files on disk."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import textwrap
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import unquote, urlsplit

import anyio
import pytest
from jsonschema import Draft202012Validator

from repo_graph.render import compact_json
from repo_graph.tokenizer import Tokenizer

from .conftest import FIXTURE_FILES, REPO_ROOT, host_env, make_repo
from .test_benchmarks import _history
from .test_no_network import SITECUSTOMIZE

pytest.importorskip("mcp")
from mcp import Client, ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

MODES = ("legacy", "auto")  # the initialize handshake, and the SDK client's default
TOOLS = {"get_context", "get_symbol", "related", "verify", "index_status"}

# Enough code that small budgets must leave frames out.
BIGGER_FILES = dict(FIXTURE_FILES)
for _n in range(6):
    BIGGER_FILES[f"src/retry_strategies_{_n}.py"] = "\n\n".join(
        f"def retry_strategy_{_n}_{i}(policy, attempt):\n"
        f'    """Retry strategy {i}: how long the policy waits before attempt number `attempt`."""\n'
        f"    delay = policy.backoff_ms * ({i} + attempt)\n"
        f"    return min(delay, policy.max_attempts * 1000)\n"
        for i in range(12)
    )
# A wide table: many bytes to a token, so a full answer outgrows a pipe's 64 KiB.
BIGGER_FILES["docs/strategies.md"] = "# Retry strategy delays\n\n" + "".join(
    f"| retry_strategy_{n}_{i} {' ' * 60} | policy delay {n + i:>4} ms {' ' * 60} |\n"
    for n in range(6)
    for i in range(12)
)


@pytest.fixture(scope="module")
def tokenizer():
    t = Tokenizer(helper=False).start()
    t.wait_loaded()
    return t


@pytest.fixture
def bigger_repo(tmp_path) -> Path:
    return make_repo(tmp_path / "bigger", BIGGER_FILES)


def params(repo: Path, home: Path, env: dict | None = None, args=()) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "repo_graph", "mcp", str(repo), *args],
        env=host_env(home, env),
        cwd=str(REPO_ROOT),
    )


@asynccontextmanager
async def connected(server: StdioServerParameters, errlog, mode: str = "auto"):
    """A ClientSession on `repo-graph mcp`: legacy drives the initialize handshake
    itself; auto is the SDK Client's default negotiation."""
    if mode == "legacy":
        async with stdio_client(server, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                yield session
    else:
        async with Client(stdio_client(server, errlog=errlog), mode=mode) as client:
            yield client.session


def run(fn, *args):
    return anyio.run(fn, *args)


def text_of(result) -> str:
    assert len(result.content) == 1 and result.content[0].type == "text"
    return result.content[0].text


def recount(tokenizer, result) -> int:
    """The whole result as a host receives it: the text and the compact JSON of the
    structured content, cl100k_base."""

    def count(s: str) -> int:
        return tokenizer.count(s, hashlib.sha256(s.encode()).hexdigest())

    return count(text_of(result)) + count(compact_json(result.structured_content))


def assert_within_budget(tokenizer, result, budget: int) -> dict:
    assert not result.is_error, text_of(result)
    data = result.structured_content
    real = recount(tokenizer, result)
    assert real <= budget
    assert data["tokens"] == real  # the footer's figure is the result's own count
    assert f"{real:,} of {budget:,} tokens" in text_of(result)
    return data


def rehash(frame: dict) -> str:
    """sha256 of the exact lines the frame names, read from disk now."""
    path = Path(unquote(urlsplit(frame["uri"]).path))
    data = path.read_bytes().splitlines(keepends=True)
    spans = []
    for part in frame["lines"].split(","):
        first, _, last = part.removeprefix("L").partition("-")
        spans.append(b"".join(data[int(first) - 1 : int(last or first)]))
    return "sha256:" + hashlib.sha256(b"".join(spans)).hexdigest()


@pytest.mark.parametrize("mode", MODES)
def test_the_five_tools_are_listed_read_only_with_schemas_and_cost_little_to_list(
    repo, home, tmp_path, mode, tokenizer
):
    async def go():
        with open(tmp_path / "stderr", "w") as errlog:
            async with connected(params(repo, home), errlog, mode) as session:
                return await session.list_tools()

    listed = run(go)
    assert {t.name for t in listed.tools} == TOOLS
    for tool in listed.tools:
        Draft202012Validator.check_schema(tool.input_schema)
        Draft202012Validator.check_schema(tool.output_schema)
        assert tool.input_schema["type"] == "object" and tool.input_schema["additionalProperties"] is False
        assert tool.annotations.read_only_hint and tool.annotations.idempotent_hint
        assert tool.annotations.destructive_hint is False and tool.annotations.open_world_hint is False
        assert 40 < len(tool.description) < 400
    listing = json.dumps([t.model_dump(by_alias=True, exclude_none=True) for t in listed.tools])
    assert tokenizer.count(listing, "listing") < 3000  # sent with every request a host makes


@pytest.mark.parametrize("mode", MODES)
def test_every_get_context_result_fits_its_budget_recounted_and_its_citations_rehash_from_disk(
    bigger_repo, home, tmp_path, mode, tokenizer
):
    asks = [
        dict(goal="how does the retry policy wait between attempts", max_tokens=b) for b in (1000, 1300, 2000, 4000)
    ]
    asks += [
        dict(goal="retry strategy delay", anchors=["src/config.py"], max_tokens=1200, max_frames=30),
        dict(goal="retry policy", kinds=["doc"], max_tokens=1000),
        dict(goal="retry policy backoff"),  # the default budget
        dict(goal="retry strategy", max_tokens=20000, max_frames=64),
    ]

    async def go():
        with open(tmp_path / "stderr", "w") as errlog:
            async with connected(params(bigger_repo, home), errlog, mode) as session:
                return [(a, await session.call_tool("get_context", a)) for a in asks]

    left_out = 0
    for ask, result in run(go):
        data = assert_within_budget(tokenizer, result, ask.get("max_tokens", 8000))
        assert data["frames"], ask
        assert len(data["frames"]) == data["sent"] <= data["offered"]
        left_out += data["offered"] - data["sent"]
        for frame in data["frames"]:
            assert rehash(frame) == frame["content_digest"]
            assert f"frame_id: {frame['frame_id']}\ncontent_digest: {frame['content_digest']}" in text_of(result)
            assert frame["content"] in text_of(result)  # whole, never cut
        if ask.get("kinds") == ["doc"]:
            assert {f["kind"] for f in data["frames"]} == {"doc"}
    assert left_out > 0  # the small budgets did cut, by whole frames


def test_get_context_sends_a_prefix_of_the_cgp_answer_for_the_same_budget(bigger_repo, home, tmp_path):
    goal = "how does the retry policy wait between attempts"

    async def go():
        with open(tmp_path / "stderr", "w") as errlog:
            async with connected(params(bigger_repo, home), errlog) as session:
                return [
                    (
                        await session.call_tool("get_context", {"goal": goal, "max_tokens": b, "max_frames": 10})
                    ).structured_content
                    for b in (1000, 2000, 6000)
                ]

    for data in run(go):
        cgp = subprocess.run(
            [
                sys.executable,
                "-m",
                "repo_graph",
                "query",
                str(bigger_repo),
                goal,
                "--json",
                "--max-frames",
                "10",
                "--max-tokens",
                str(data["query_max_tokens"]),
            ],
            capture_output=True,
            env=host_env(home),
            cwd=str(REPO_ROOT),
            check=True,
        )
        order = [f["id"] for f in json.loads(cgp.stdout)["result"]["frames"]]
        sent = [f["frame_id"] for f in data["frames"]]
        assert sent and sent == order[: len(sent)]
        assert data["offered"] == len(order)


def test_an_edit_makes_verify_say_stale_and_the_next_answer_show_it_and_a_delete_makes_it_gone(repo, home, tmp_path):
    config = repo / "src" / "config.py"

    async def go():
        with open(tmp_path / "stderr", "w") as errlog:
            async with connected(params(repo, home, args=["--no-watch"]), errlog) as session:
                first = await session.call_tool("get_context", {"goal": "retry policy delay", "kinds": ["symbol"]})
                delay = await session.call_tool("get_symbol", {"symbol": "RetryPolicy.delay"})
                cited = [
                    {k: f[k] for k in ("frame_id", "content_digest")}
                    for f in first.structured_content["frames"] + delay.structured_content["frames"][:1]
                ]
                before = await session.call_tool("verify", {"citations": cited})
                config.write_text(config.read_text().replace("2 ** attempt", "3 ** attempt"))
                after = await session.call_tool("verify", {"citations": cited})
                again = await session.call_tool("get_symbol", {"symbol": "RetryPolicy.delay"})
                config.unlink()
                gone = await session.call_tool("verify", {"citations": cited})
                return cited, before, after, again, gone

    cited, before, after, again, gone = run(go)
    assert any(c["frame_id"] == "src/config.py#RetryPolicy.delay" for c in cited)
    assert {v["status"] for v in before.structured_content["verdicts"]} == {"valid"}
    verdicts = {v["frame_id"]: v for v in after.structured_content["verdicts"]}
    edited = verdicts["src/config.py#RetryPolicy.delay"]
    assert edited["status"] == "stale" and edited["current_digest"] != edited["content_digest"]
    assert f"stale: src/config.py#RetryPolicy.delay (now {edited['current_digest']})" in text_of(after)
    assert all(v["status"] == "valid" for f, v in verdicts.items() if not f.startswith("src/config.py"))
    shown = again.structured_content["frames"][0]
    assert "3 ** attempt" in shown["content"] and shown["content_digest"] == edited["current_digest"]
    statuses = {v["frame_id"]: v["status"] for v in gone.structured_content["verdicts"]}
    assert all(s == "gone" for f, s in statuses.items() if f.startswith("src/config.py"))


def test_get_symbol_shows_the_symbol_its_relations_and_on_request_its_neighbours(repo, home, tmp_path, tokenizer):
    uri = (repo / "src" / "config.py").resolve().as_uri() + "#load_config"

    async def go():
        with open(tmp_path / "stderr", "w") as errlog:
            async with connected(params(repo, home), errlog, "legacy") as session:
                return [
                    await session.call_tool("get_symbol", a)
                    for a in (
                        {"symbol": "RetryPolicy"},
                        {"symbol": "src/config.py#RetryPolicy"},
                        {"symbol": uri},
                        {"symbol": "RetryPolicy", "with_neighbors": True, "max_tokens": 3000},
                    )
                ]

    by_name, by_id, by_uri, with_neighbours = run(go)
    for result in (by_name, by_id):
        frame = assert_within_budget(tokenizer, result, 8000)["frames"][0]
        assert frame["frame_id"] == "src/config.py#RetryPolicy"
        assert "class RetryPolicy" in frame["content"]
        assert {
            "rel": "repo-graph:documented-by",
            "target_uri": (repo / "README.md").resolve().as_uri() + "#retry-policy",
            "display_name": "retry-policy (README.md)",
        } in frame["relations"]
        assert "relations: " in text_of(result) and "documented-by retry-policy (README.md)" in text_of(result)
    assert by_uri.structured_content["frames"][0]["frame_id"] == "src/config.py#load_config"
    data = assert_within_budget(tokenizer, with_neighbours, 3000)
    ids = [f["frame_id"] for f in data["frames"]]
    assert ids[0] == "src/config.py#RetryPolicy"
    assert "README.md#retry-policy" in ids and "src/config.py#load_config" in ids  # documented by, called by
    assert "src/config.py#RetryPolicy.delay" not in ids  # a member is inside the body already sent


def test_related_answers_each_relation_from_the_graph(repo, home, tmp_path, tokenizer):
    asks = {
        ("load_config", "callers"): "src/client.py#fetch",
        ("src/client.py#fetch", "callees"): "src/config.py#load_config",
        ("RetryPolicy", "references"): "src/config.py#load_config",
        ("src/client.py", "imports"): "src/config.py#__module__",
        ("src/config.py", "importers"): "src/client.py#__module__",
        ("RetryPolicy", "members"): "src/config.py#RetryPolicy.delay",
        ("RetryPolicy", "documents"): "README.md#retry-policy",
        ("README.md#retry-policy", "documents"): "src/config.py#RetryPolicy",
    }

    async def go():
        with open(tmp_path / "stderr", "w") as errlog:
            async with connected(params(repo, home), errlog) as session:
                return {
                    k: await session.call_tool("related", {"anchor": k[0], "relation": k[1], "max_tokens": 2000})
                    for k in asks
                }

    for (anchor, relation), result in run(go).items():
        data = assert_within_budget(tokenizer, result, 2000)
        ids = [f["frame_id"] for f in data["frames"]]
        assert asks[anchor, relation] in ids, (anchor, relation, ids)
        assert f"are {relation} of {anchor!r}" in data["note"]


def test_invalid_arguments_are_clear_tool_errors_and_serving_goes_on(repo, home, tmp_path):
    bad = [
        ("get_context", {}, "'goal' is a required property"),
        ("get_context", {"goal": "x", "max_tokens": 50_000}, "max_tokens: 50000 is greater than the maximum of 20000"),
        ("get_context", {"goal": "x", "kinds": ["fact"]}, "kinds/0: 'fact' is not one of ['symbol', 'doc']"),
        ("get_context", {"goal": "x", "as_of": "yesterday"}, "as_of: 'yesterday' does not match"),
        ("get_context", {"goal": "x", "color": "red"}, "Additional properties are not allowed ('color'"),
        ("related", {"anchor": "fetch", "relation": "friends"}, "relation: 'friends' is not one of"),
        ("verify", {"citations": [{"frame_id": "a#b"}]}, "citations/0: 'content_digest' is a required property"),
        ("get_symbol", {"symbol": "NoSuchThing"}, "nothing in the index is named 'NoSuchThing'"),
        ("related", {"anchor": "../../etc/passwd", "relation": "importers"}, "nothing in the index is named"),
    ]

    async def go():
        with open(tmp_path / "stderr", "w") as errlog:
            async with connected(params(repo, home), errlog) as session:
                answers = [await session.call_tool(name, args) for name, args, _ in bad]
                try:
                    await session.call_tool("rm_rf", {})
                    unknown = None
                except Exception as exc:  # an unknown tool is a protocol error, not a tool result
                    unknown = str(exc)
                return answers, unknown, await session.call_tool("get_context", {"goal": "retry policy"})

    answers, unknown, good = run(go)
    for (name, _, says), result in zip(bad, answers):
        assert result.is_error, name
        assert says in text_of(result), text_of(result)
    assert "unknown tool 'rm_rf'" in unknown
    assert not good.is_error and good.structured_content["frames"]


def test_concurrent_calls_are_each_answered_whole_and_alike(bigger_repo, home, tmp_path, tokenizer):
    calls = [("get_context", {"goal": "retry strategy delay", "max_tokens": 1500})] * 4
    calls += [
        ("get_symbol", {"symbol": "RetryPolicy"}),
        ("related", {"anchor": "RetryPolicy", "relation": "members"}),
        ("index_status", {}),
        ("get_context", {"goal": "logging", "kinds": ["doc"], "max_tokens": 1000}),
    ] * 2

    async def go():
        results = [None] * len(calls)
        with open(tmp_path / "stderr", "w") as errlog:
            async with connected(params(bigger_repo, home), errlog) as session:

                async def one(i, name, args):
                    results[i] = await session.call_tool(name, args)

                async with anyio.create_task_group() as tg:
                    for i, (name, args) in enumerate(calls):
                        tg.start_soon(one, i, name, args)
        return results

    results = run(go)
    for (name, args), result in zip(calls, results):
        assert not result.is_error, text_of(result)
        if name != "index_status":
            assert_within_budget(tokenizer, result, args.get("max_tokens", 8000))
    same = {text_of(r) for (name, args), r in zip(calls, results) if args.get("goal") == "retry strategy delay"}
    assert len(same) == 1  # one question, one answer, however the calls interleave


def test_calls_during_the_first_index_are_answered_and_say_how_far_it_is(tmp_path, home, tokenizer):
    files = {
        f"pkg{i % 40}/mod{i}.py": "".join(
            f'def widget_{i}_{j}(x):\n    """Scale widget {i} part {j}."""\n    return x * {j}\n\n\n' for j in range(4)
        )
        for i in range(4000)
    }
    repo = make_repo(tmp_path / "large", files)

    async def go():
        with open(tmp_path / "stderr", "w") as errlog:
            async with connected(params(repo, home, args=["--jobs", "1"]), errlog) as session:
                early = await session.call_tool("index_status", {})
                answers = [None, None]

                async def ask(i, args):
                    answers[i] = await session.call_tool("get_context", args)

                async with anyio.create_task_group() as tg:
                    tg.start_soon(ask, 0, {"goal": "scale widget 17 part 2", "max_tokens": 1000})
                    tg.start_soon(ask, 1, {"goal": "widget", "anchors": ["pkg3/mod3.py"], "max_tokens": 1000})
                    middle = await session.call_tool("index_status", {})
                while (late := await session.call_tool("index_status", {})).structured_content["state"] != "ready":
                    await anyio.sleep(0.5)
                done = await session.call_tool("get_context", {"goal": "scale widget 17 part 2", "max_tokens": 1000})
                return early, middle, answers, late, done

    early, middle, answers, late, done = run(go)
    status = early.structured_content
    assert status["state"] == "building"  # 4,000 files parsed in one process take seconds
    how_far = f"{status['parsed']:,} of {status['to_parse']:,} files parsed" if status["to_parse"] else "walking"
    assert f"state: building ({how_far}" in text_of(early)
    assert "still being built" in text_of(early)
    assert not middle.is_error  # index_status never waits behind an answer
    for result in answers:  # answered, or told plainly why not yet and how far the index is
        if result.is_error:
            assert "still being built" in text_of(result) and "files parsed" in text_of(result)
        else:
            assert_within_budget(tokenizer, result, 1000)
    assert late.structured_content["files"] == 4000
    assert "watcher: live" in text_of(late)
    assert_within_budget(tokenizer, done, 1000)
    assert "still being built" not in text_of(done)
    assert "pkg17/mod17.py#widget_17_2" in [f["frame_id"] for f in done.structured_content["frames"]]


def test_a_first_index_the_disk_cuts_short_leaves_nothing_beside_and_index_status_says_it_stopped(
    tmp_path, home, tokenizer
):
    """The disk fills during a first index built beside (here: a 3 MB cap on the size of
    any file the provider writes, `ulimit -f`, which the build passes and the tokenizer's
    cache does not): the half-built file is removed, answers go on from what the index
    holds, and index_status says the index stopped and why, instead of `ready`."""
    files = {
        f"pkg{i % 40}/mod{i}.py": "".join(
            f'def widget_{i}_{j}(x):\n    """Scale widget {i} part {j}."""\n    return x * {j}\n\n\n' for j in range(4)
        )
        for i in range(1500)
    }
    repo = make_repo(tmp_path / "large", files)
    command = f"ulimit -f 3000; exec {sys.executable} -m repo_graph mcp {repo} --jobs 1 --no-watch"
    server = StdioServerParameters(command="bash", args=["-c", command], env=host_env(home), cwd=str(REPO_ROOT))

    async def go():
        with open(tmp_path / "stderr", "w") as errlog:
            async with connected(server, errlog) as session:
                while (st := await session.call_tool("index_status", {})).structured_content["state"] == "building":
                    await anyio.sleep(0.2)
                answer = await session.call_tool("get_context", {"goal": "scale widget 17 part 2", "max_tokens": 1000})
                return st, answer

    st, answer = run(go)
    assert st.structured_content["state"] == "failed", text_of(st)
    assert "indexing failed" in st.structured_content["error"] and "disk" in st.structured_content["error"]
    assert "stopped before its end" in text_of(st) and "next start indexes the rest" in text_of(st)
    assert not answer.is_error and "stopped before its end" in text_of(answer)
    assert_within_budget(tokenizer, answer, 1000)
    assert not [p.name for p in home.rglob("*.next*")]  # the half-built index is gone
    assert "indexing failed" in (tmp_path / "stderr").read_text()


def test_stdout_carries_json_rpc_only_whatever_prints_to_fd_1(bigger_repo, home, tmp_path):
    """Raw pipes, no SDK: every byte on stdout is a JSON-RPC message, while a thread
    prints, writes to fd 1 and starts a child that echoes, from the moment the
    server has claimed the wire; an answer larger than the pipe arrives whole."""
    guard = tmp_path / "noise"
    guard.mkdir()
    (guard / "sitecustomize.py").write_text(
        textwrap.dedent("""\
        import os, subprocess, sys, threading, time
        if "mcp" in sys.argv:
            wire = os.fstat(1)
            def noise():
                while (os.fstat(1).st_ino, os.fstat(1).st_dev) == (wire.st_ino, wire.st_dev):
                    time.sleep(0.01)  # until the server has claimed the wire
                for _ in range(20):
                    print("print-noise", flush=True)
                    os.write(1, b"fd1-noise\\n")
                    subprocess.run(["sh", "-c", "echo child-noise"])
                    time.sleep(0.05)
            threading.Thread(target=noise, daemon=True).start()
        """)
    )
    env = host_env(home, {"PYTHONPATH": f"{guard}:{REPO_ROOT}"})
    proc = subprocess.Popen(
        [sys.executable, "-m", "repo_graph", "mcp", str(bigger_repo)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=str(REPO_ROOT),
    )
    messages = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {
                "name": "get_context",
                "arguments": {
                    "goal": "retry strategy delays",
                    "anchors": ["docs/strategies.md"],
                    "max_tokens": 20000,
                    "max_frames": 64,
                },
            },
        },
        {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "index_status", "arguments": {}}},
    ]
    received, sizes = [], []
    for message in messages:
        proc.stdin.write(json.dumps(message).encode() + b"\n")
        proc.stdin.flush()
        while "id" in message and (not received or received[-1].get("id") != message["id"]):
            line = proc.stdout.readline()
            assert line.endswith(b"\n"), line
            received.append(json.loads(line))  # every line on stdout parses
            sizes.append(len(line))
    proc.stdin.close()  # EOF: a clean exit
    assert proc.wait(timeout=60) == 0
    rest = proc.stdout.read()
    stderr = proc.stderr.read()
    assert rest == b""
    assert all(r["jsonrpc"] == "2.0" for r in received)
    replies = [r for r in received if "id" in r]
    assert [r["id"] for r in replies] == [1, 2, 3, 4]
    assert all("result" in r for r in replies)
    assert replies[0]["result"]["serverInfo"]["name"] == "repo-graph"
    assert replies[2]["result"]["structuredContent"]["frames"]
    assert max(sizes) > 65536  # more than a pipe holds: written across many writes, whole
    for noise in (b"print-noise", b"fd1-noise", b"child-noise"):
        assert noise in stderr  # the noise was made, and went to stderr


def test_answers_come_with_the_network_cut(repo, home, tmp_path):
    guard = tmp_path / "guard"
    guard.mkdir()
    (guard / "sitecustomize.py").write_text(SITECUSTOMIZE)

    async def go():
        with open(tmp_path / "stderr", "w") as errlog:
            async with connected(params(repo, home, {"PYTHONPATH": f"{guard}:{REPO_ROOT}"}), errlog) as session:
                return await session.call_tool("get_context", {"goal": "retry policy"})

    result = run(go)
    assert not result.is_error and result.structured_content["frames"]
    stderr = (tmp_path / "stderr").read_text()
    assert "network guard active" in stderr and "network access attempted" not in stderr


def test_the_quality_benchmark_runs_its_cases_through_get_context_as_a_prefix_of_cgp(tmp_path):
    """`--systems repo-graph:mcp`: each case asked through get_context (the SDK's client
    on the MCP server, in process), which checks its frames against CGP's order."""
    repo = _history(tmp_path / "repo")
    out = tmp_path / "q.json"
    proc = subprocess.run(
        [
            sys.executable,
            str(REPO_ROOT / "benchmarks" / "quality.py"),
            str(repo),
            "--systems",
            "repo-graph,repo-graph:mcp",
            "--tmp",
            str(tmp_path),
            "--save",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=str(REPO_ROOT),
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(out.read_text())["repositories"][0]
    assert report["cases"] and all("repo-graph:mcp" in c["results"] for c in report["cases"])
    rows = {(r["system"], r["task"]): r for r in report["summary"]}
    assert rows["repo-graph:mcp", "unanchored"]["r5"] == rows["repo-graph", "unanchored"]["r5"]  # one ranking
