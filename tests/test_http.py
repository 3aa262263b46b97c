"""`repo-graph serve --http` (issue 38), driven as a real subprocess over real loopback
sockets: the transport's answers, each item of its security list (S1-S5, docs/http.md),
many clients while files change, a restart, and the protocol's own probe. Waits are
bounded polls, never timed assertions."""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import socket
import stat
import subprocess
import threading
import time
from http.client import HTTPConnection

import pytest

from .conftest import assert_schema_valid, make_repo, shared_file
from .http_server import HttpServer, closed_by_peer, exchange, inet_sockets, post, raw_request, read_response

HANDSHAKE = {"type": "handshake", "protocol_version": "contextgraph/1.0"}
TOKEN_PATTERN = re.compile(r"^[A-Za-z0-9_-]{43}$")  # 32 random bytes, URL-safe base64


def query(goal="retry policy", request_id=None, **fields):
    envelope = {"type": "query", "query": {"goal": goal, "max_frames": 8, "max_tokens": 4096, **fields}}
    if request_id is not None:
        envelope["id"] = request_id
    return envelope


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    root = tmp_path_factory.mktemp("http")
    (root / "home").mkdir()
    make_repo(root / "repo")
    return root


@pytest.fixture(scope="module")
def served(base):
    """One server for the tests that only send requests."""
    server = HttpServer(base / "repo", base / "home", base / "cache").wait_started()
    yield server
    server.kill()


@pytest.fixture
def start(base, tmp_path):
    """Starts servers with the flags a test names (on a cache of the test's own unless
    told); stops them after it."""
    started = []

    def run(*args, repo=None, cache=None, wait=True, http="0"):
        server = HttpServer(repo or base / "repo", base / "home", cache or tmp_path / "cache", args, http=http)
        started.append(server)
        return server.wait_started() if wait else server

    yield run
    for server in started:
        server.kill()


def assert_answers(server, envelope_validator):
    """S5: the server still answers, and what it answers is a valid envelope."""
    reply = post(server, HANDSHAKE)
    assert reply.status == 200, reply
    assert_schema_valid(envelope_validator, reply.json())
    assert reply.json()["type"] == "handshake_ack"


# -- the transport ----------------------------------------------------------------


def test_http_handshake_is_200_with_a_json_handshake_ack(served, envelope_validator):
    reply = post(served, HANDSHAKE)
    assert reply.status == 200
    assert reply.headers["content-type"] == "application/json"
    ack = reply.json()
    assert_schema_valid(envelope_validator, ack)
    assert ack["type"] == "handshake_ack" and ack["provider"]["data_flow"]["egress"] is False


def test_http_query_needs_no_handshake_and_echoes_its_id(served, envelope_validator):
    reply = post(served, query(request_id="q-7"))
    assert reply.status == 200
    frames = reply.json()
    assert_schema_valid(envelope_validator, frames)
    assert frames["type"] == "frames" and frames["id"] == "q-7"
    assert any(f["id"].startswith("src/config.py#RetryPolicy") for f in frames["result"]["frames"])


def test_http_shutdown_is_204_without_a_body_and_a_new_handshake_works(served, envelope_validator):
    assert post(served, HANDSHAKE).status == 200
    reply = post(served, {"type": "shutdown"})
    assert reply.status == 204 and reply.body == b""
    assert "content-type" not in reply.headers
    assert_answers(served, envelope_validator)
    assert served.proc.poll() is None


@pytest.mark.parametrize("body", [b"[1, 2]", b'"a string"', b"garbage", b"", b'{"type": ', b"\xff\xfe"])
def test_http_body_that_is_not_a_json_object_is_400_with_a_bad_request_envelope(served, envelope_validator, body):
    reply = post(served, body)
    assert reply.status == 400
    error = reply.json()
    assert_schema_valid(envelope_validator, error)
    assert error["type"] == "error" and error["code"] == "bad_request"


def test_http_protocol_error_is_200_with_an_error_envelope_as_over_stdio(served, envelope_validator):
    for envelope, code in [
        ({"type": "nonsense", "id": "x1"}, "bad_request"),
        (query(request_id="x2", kinds=["video"]), "bad_request"),
        ({"type": "handshake", "protocol_version": "contextgraph/2.0"}, "incompatible_version"),
    ]:
        reply = post(served, envelope)
        assert reply.status == 200, envelope
        error = reply.json()
        assert_schema_valid(envelope_validator, error)
        assert error["type"] == "error" and error["code"] == code
        if "id" in envelope:
            assert error["id"] == envelope["id"]


def test_http_verify_answers_verdicts(served, envelope_validator):
    frame = post(served, query()).json()["result"]["frames"][0]
    identity = {"provider_id": "repo-graph", "frame_id": frame["id"], "content_digest": frame["content_digest"]}
    request = {"frames": [identity]}
    reply = post(served, {"type": "verify", "id": "v1", "request": request})
    assert reply.status == 200
    verified = reply.json()
    assert_schema_valid(envelope_validator, verified)
    assert verified["response"]["verdicts"][0]["status"] == "valid"


def test_http_one_connection_carries_many_exchanges(served):
    conn = HTTPConnection("127.0.0.1", served.port, timeout=60)
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {served.token}"}
    for _ in range(3):
        conn.request("POST", "/cgp", json.dumps(HANDSHAKE), headers)
        response = conn.getresponse()
        assert response.status == 200 and json.loads(response.read())["type"] == "handshake_ack"
    conn.close()


def test_http_server_writes_nothing_to_stdout(served):
    post(served, query())
    post(served, b"garbage")
    exchange(served.port, "GET")
    assert served.stdout() == b""
    assert "serving CGP over HTTP at http://127.0.0.1:" in served.stderr()


# -- S1: where it listens -----------------------------------------------------------


def test_http_s1_binds_loopback_by_default(served):
    assert served.url == f"http://127.0.0.1:{served.port}/cgp"
    listening = [s for s in inet_sockets(served.proc.pid) if s[3] == "LISTEN"]
    assert listening == [("tcp", "0100007F", served.port, "LISTEN")]  # 127.0.0.1, and nothing else


def test_http_s1_another_address_without_allow_remote_is_refused_at_start(start):
    server = start(http="0.0.0.0:0", wait=False)
    assert server.proc.wait(timeout=60) == 1
    assert "--allow-remote" in server.stderr() and "Traceback" not in server.stderr()


def test_http_s1_a_host_name_is_refused_rather_than_looked_up(start):
    server = start(http="example.com:0", wait=False)
    assert server.proc.wait(timeout=60) == 1
    assert "not a name to look up" in server.stderr()


def test_http_s1_remote_with_no_token_is_refused_at_start(start):
    server = start("--allow-remote", "--no-token", http="0.0.0.0:0", wait=False)
    assert server.proc.wait(timeout=60) == 1
    assert "--no-token" in server.stderr()


def test_http_s1_allow_remote_warns_it_is_reachable_and_still_needs_the_token(start, envelope_validator):
    server = start("--allow-remote", http="0.0.0.0:0")
    assert "reachable from other machines" in server.stderr()
    assert post(server, HANDSHAKE, token=None).status == 401
    assert post(server, HANDSHAKE, token="not-the-token-at-all").status == 401
    assert_answers(server, envelope_validator)


# -- S2: Host and Origin (DNS rebinding) ---------------------------------------------


@pytest.mark.parametrize(
    "host",
    [
        "evil.example:{port}",
        "evil.example",
        "127.0.0.1:1",
        "127.0.0.2:{port}",
        "localhost.evil.example:{port}",
        "127.0.0.1.nip.io:{port}",
        "[::1]:{port}",
        "",
    ],
)
def test_http_s2_host_header_naming_another_host_is_421(served, envelope_validator, host):
    reply = post(served, HANDSHAKE, host=host.format(port=served.port))
    assert reply.status == 421
    assert reply.json()["type"] == "error"
    assert_answers(served, envelope_validator)


def test_http_s2_missing_host_header_is_421(served):
    assert post(served, HANDSHAKE, host=None, version="HTTP/1.0").status == 421


def test_http_s2_localhost_with_the_port_is_accepted_on_loopback(served):
    for host in (f"localhost:{served.port}", f"LOCALHOST:{served.port}", f"127.0.0.1:{served.port}"):
        assert post(served, HANDSHAKE, host=host).status == 200, host


@pytest.mark.parametrize(
    "origin",
    [
        "https://evil.example",
        "http://evil.example:{port}",
        "null",
        "http://127.0.0.1:1",
        "https://127.0.0.1:{port}",
        "http://localhost:{port}",
    ],
)
def test_http_s2_origin_other_than_the_same_loopback_origin_is_403(served, envelope_validator, origin):
    reply = post(served, HANDSHAKE, headers=[("Origin", origin.format(port=served.port))])
    assert reply.status == 403  # the last: Host says 127.0.0.1, so localhost is another origin
    assert_answers(served, envelope_validator)


def test_http_s2_the_same_loopback_origin_is_accepted(served):
    assert post(served, HANDSHAKE, headers=[("Origin", f"http://127.0.0.1:{served.port}")]).status == 200
    local = f"localhost:{served.port}"
    reply = post(served, HANDSHAKE, host=local, headers=[("Origin", f"http://{local}")])
    assert reply.status == 200


# -- S3: the token --------------------------------------------------------------------


def test_http_s3_token_is_32_random_bytes_in_a_file_only_the_user_can_read(served):
    assert TOKEN_PATTERN.match(served.token)
    assert stat.S_IMODE(served.state_path.stat().st_mode) == 0o600
    assert stat.S_IMODE(served.state_path.parent.stat().st_mode) == 0o700
    state = json.loads(served.state_path.read_text())
    assert state["url"] == served.url and state["url_with_token"] == f"{served.url}?token={served.token}"


def test_http_s3_missing_or_wrong_token_is_401(served, envelope_validator):
    for token in (None, "", served.token[:-1], served.token + "x", served.token.upper(), "Basic " + served.token):
        reply = post(served, HANDSHAKE, token=token)
        assert reply.status == 401, token
        assert reply.headers["www-authenticate"] == "Bearer"
    assert exchange(served.port, target="/cgp?token=wrong", body=json.dumps(HANDSHAKE).encode()).status == 401
    assert_answers(served, envelope_validator)


def test_http_s3_token_is_accepted_as_a_bearer_header_or_in_the_query(served):
    assert post(served, HANDSHAKE).status == 200
    body = json.dumps(HANDSHAKE).encode()
    assert exchange(served.port, target=f"/cgp?token={served.token}", body=body).status == 200
    assert exchange(served.port, target=f"/cgp?x=1&token={served.token}", body=body).status == 200


def test_http_s3_token_never_reaches_argv_logs_or_error_text(served):
    token = served.token
    replies = [
        exchange(served.port, "GET", f"/cgp?token={token}"),
        exchange(served.port, "POST", f"/other?token={token}", body=b"{}"),
        exchange(served.port, "POST", f"/cgp?token={token}", body=b"{}", content_type="text/plain"),
        exchange(served.port, "POST", f"/cgp?token={token}", body=b"[]"),
        exchange(served.port, "POST", f"/cgp?token={token}", body=b"{}", host="evil.example"),
        post(served, {"type": "query", "query": {"goal": token}}),  # a bad query quoting it
        post(served, b"{" + token.encode()),
    ]
    assert [r.status for r in replies] == [405, 404, 415, 400, 421, 200, 400]
    for reply in replies:
        assert token.encode() not in reply.body
    cmdline = open(f"/proc/{served.proc.pid}/cmdline", "rb").read()
    assert token.encode() not in cmdline
    assert "refused GET" in served.stderr() and token not in served.stderr()


def test_http_s3_token_file_gives_the_token_and_stays_out_of_argv(start, tmp_path):
    secret = "a-token-the-user-chose-0123456789"
    token_file = tmp_path / "token"
    token_file.write_text(secret + "\n")
    token_file.chmod(0o600)
    server = start("--token-file", str(token_file))
    assert server.token == secret
    assert post(server, HANDSHAKE).status == 200
    assert post(server, HANDSHAKE, token=None).status == 401
    assert secret.encode() not in open(f"/proc/{server.proc.pid}/cmdline", "rb").read()


def test_http_s3_token_file_others_can_read_is_refused_at_start(start, tmp_path):
    token_file = tmp_path / "token"
    token_file.write_text("a-token-the-user-chose-0123456789\n")
    token_file.chmod(0o644)
    server = start("--token-file", str(token_file), wait=False)
    assert server.proc.wait(timeout=60) == 1
    assert "chmod 600" in server.stderr() and "a-token-the-user-chose" not in server.stderr()


def test_http_s3_no_token_on_loopback_serves_without_one_and_warns(start, envelope_validator):
    server = start("--no-token")
    assert server.token is None
    assert "warning: --no-token" in server.stderr()
    assert post(server, HANDSHAKE, token=None).status == 200
    assert post(server, HANDSHAKE, token=None, host="evil.example").status == 421  # the other guards stay


# -- S4: what is served, and how much --------------------------------------------------


@pytest.mark.parametrize("method", ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH"])
def test_http_s4_other_methods_on_the_served_path_are_405(served, envelope_validator, method):
    reply = exchange(served.port, method, f"/cgp?token={served.token}")
    assert reply.status == 405 and reply.headers["allow"] == "POST"
    assert_answers(served, envelope_validator)


@pytest.mark.parametrize("path", ["/", "/cgp/", "/CGP", "/cgp/x", "/favicon.ico", "//cgp"])
def test_http_s4_other_paths_are_404_never_redirected(served, envelope_validator, path):
    reply = exchange(served.port, "POST", f"{path}?token={served.token}", body=json.dumps(HANDSHAKE).encode())
    assert reply.status == 404 and "location" not in reply.headers
    assert_answers(served, envelope_validator)


@pytest.mark.parametrize(
    "content_type",
    [None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonx"],
)
def test_http_s4_body_not_sent_as_application_json_is_415(served, envelope_validator, content_type):
    reply = post(served, HANDSHAKE, content_type=content_type)
    assert reply.status == 415
    assert_answers(served, envelope_validator)


def test_http_s4_application_json_with_a_charset_is_accepted(served):
    assert post(served, HANDSHAKE, content_type="application/json; charset=utf-8").status == 200


def test_http_s4_content_length_over_8_mib_is_413_before_the_body_is_read(served, envelope_validator):
    with socket.create_connection(("127.0.0.1", served.port), timeout=60) as sock:
        head = raw_request(served.port, headers=[("Authorization", f"Bearer {served.token}")])
        sock.sendall(head.replace(b"Content-Length: 0", b"Content-Length: %d" % (8 * 1024 * 1024 + 1)))
        reply = read_response(sock)  # no byte of the body was sent
    assert reply.status == 413
    assert_answers(served, envelope_validator)


def test_http_s4_chunked_body_over_8_mib_is_413(served, envelope_validator):
    chunk = b"x" * 65536
    with socket.create_connection(("127.0.0.1", served.port), timeout=60) as sock:
        head = raw_request(
            served.port, headers=[("Authorization", f"Bearer {served.token}"), ("Transfer-Encoding", "chunked")]
        )
        sock.sendall(head.replace(b"Content-Length: 0\r\n", b""))
        try:
            for _ in range(8 * 16 + 16):  # 9 MiB, and no end: the server must stop reading
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        except OSError:
            pass  # the server closed the connection once it had answered
        reply = read_response(sock)
    assert reply.status == 413
    assert_answers(served, envelope_validator)


def test_http_s4_a_body_of_8_mib_is_read_and_answered(served):
    body = json.dumps({**HANDSHAKE, "padding": "x" * (8 * 1024 * 1024 - 100)}).encode()
    assert len(body) <= 8 * 1024 * 1024
    assert post(served, body).status == 200


def test_http_s4_no_response_carries_cors_headers(served):
    replies = [
        post(served, HANDSHAKE),
        post(served, query()),
        post(served, {"type": "shutdown"}),
        post(served, b"[]"),
        post(served, HANDSHAKE, token=None),
        exchange(
            served.port,
            "OPTIONS",
            f"/cgp?token={served.token}",
            headers=[("Origin", "https://evil.example"), ("Access-Control-Request-Method", "POST")],
        ),
        post(served, HANDSHAKE, headers=[("Origin", "https://evil.example")]),
    ]
    for reply in replies:
        assert not any(name.startswith("access-control-") for name in reply.header_names), reply
        assert not 300 <= reply.status < 400


@pytest.fixture(scope="module")
def impatient(base):
    """A server whose requests have one second to arrive (--http-timeout 1)."""
    server = HttpServer(base / "repo", base / "home", base / "impatient", ["--http-timeout", "1"]).wait_started()
    yield server
    server.kill()


def test_http_s4_half_sent_head_is_closed_after_the_timeout(impatient, envelope_validator):
    with socket.create_connection(("127.0.0.1", impatient.port), timeout=30) as sock:
        sock.sendall(b"POST /cgp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % impatient.port)  # and never the rest
        assert closed_by_peer(sock)
    assert_answers(impatient, envelope_validator)


def test_http_s4_a_head_sent_byte_by_byte_forever_is_closed(impatient):
    with socket.create_connection(("127.0.0.1", impatient.port), timeout=30) as sock:
        end = time.monotonic() + 30
        try:
            while time.monotonic() < end:  # each byte would reset an idle timer; the deadline holds
                sock.sendall(b"X")
                time.sleep(0.1)
        except OSError:
            pass
        assert time.monotonic() < end, "the connection stayed open"


def test_http_s4_half_sent_body_is_408_after_the_timeout(impatient, envelope_validator):
    with socket.create_connection(("127.0.0.1", impatient.port), timeout=30) as sock:
        head = raw_request(impatient.port, headers=[("Authorization", f"Bearer {impatient.token}")])
        sock.sendall(head.replace(b"Content-Length: 0", b"Content-Length: 100") + b'{"type":')
        reply = read_response(sock)
        assert reply.status == 408
        assert closed_by_peer(sock)
    assert_answers(impatient, envelope_validator)


def test_http_s4_idle_connections_are_closed(impatient):
    with socket.create_connection(("127.0.0.1", impatient.port), timeout=30) as sock:
        assert closed_by_peer(sock)  # connected, sent nothing
    with socket.create_connection(("127.0.0.1", impatient.port), timeout=30) as sock:
        sock.sendall(
            raw_request(
                impatient.port,
                body=json.dumps(HANDSHAKE).encode(),
                close=False,
                headers=[("Authorization", f"Bearer {impatient.token}")],
            )
        )
        assert read_response(sock).status == 200
        assert closed_by_peer(sock)  # kept alive, then idle


def test_http_s4_headers_over_16_kib_are_refused(served, envelope_validator):
    reply = post(served, HANDSHAKE, headers=[("X-Filler", "x" * 17 * 1024)])
    assert reply.status == 431  # whole in one read: h11 took it, the guard counts it
    with socket.create_connection(("127.0.0.1", served.port), timeout=30) as sock:
        sock.sendall(raw_request(served.port, headers=[("X-Filler", "x" * 17 * 1024)])[:-4])  # never finished
        assert sock.recv(64).startswith(b"HTTP/1.1 400")  # h11's own cap on a head under way
    assert_answers(served, envelope_validator)
    assert_answers(served, envelope_validator)


def test_http_s3_state_folder_others_can_write_is_refused_at_start(start, tmp_path):
    (tmp_path / "cache" / "http").mkdir(parents=True)
    (tmp_path / "cache" / "http").chmod(0o777)
    server = start(wait=False)
    assert server.proc.wait(timeout=60) == 1
    assert "is not yours alone" in server.stderr()


# -- S5: refusals leave the server serving ---------------------------------------------


def test_http_s5_after_every_refused_request_the_next_one_is_answered(served, envelope_validator):
    bad = [
        lambda: post(served, HANDSHAKE, host="evil.example"),
        lambda: post(served, HANDSHAKE, headers=[("Origin", "https://evil.example")]),
        lambda: post(served, HANDSHAKE, token="wrong-wrong-wrong-wrong"),
        lambda: exchange(served.port, "GET", f"/cgp?token={served.token}"),
        lambda: exchange(served.port, "POST", f"/nope?token={served.token}", body=b"{}"),
        lambda: post(served, HANDSHAKE, content_type="text/plain"),
        lambda: post(served, b"[]"),
    ]
    for send in bad:
        assert send().status >= 400
        assert_answers(served, envelope_validator)
    with socket.create_connection(("127.0.0.1", served.port), timeout=30) as sock:
        sock.sendall(b"NOT HTTP AT ALL\r\n\r\n")  # h11 answers 400 and closes
        assert sock.recv(64).startswith(b"HTTP/1.1 400")
    assert_answers(served, envelope_validator)


# -- many hosts at once; restarts --------------------------------------------------------


def test_http_eight_clients_querying_while_files_change_get_whole_valid_answers(start, tmp_path, envelope_validator):
    repo = make_repo(tmp_path / "repo")
    server = start(repo=repo, cache=tmp_path / "cache")
    stop = threading.Event()
    answers, failures = [], []
    lock = threading.Lock()

    def churn():
        config = repo / "src" / "config.py"
        original = config.read_text()
        n = 0
        while not stop.is_set():
            n += 1
            config.write_text(original + f"\n\ndef retry_helper_{n}(attempt):\n    return attempt * {n}\n")
            (repo / "src" / f"extra_{n % 5}.py").write_text(f"def extra_{n}():\n    return load_config({n})\n")
            if n % 3 == 0:
                (repo / "src" / f"extra_{(n + 2) % 5}.py").unlink(missing_ok=True)
            time.sleep(0.05)

    def client(k):
        rng = random.Random(k)
        conn = HTTPConnection("127.0.0.1", server.port, timeout=60)
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {server.token}"}
        try:
            for i in range(12):
                anchors = rng.choice([[], ["src/config.py"], ["README.md"], ["RetryPolicy"]])
                goal = rng.choice(["retry policy", "load the config", "fetch a url", "extra helper", "deploy"])
                envelope = query(goal, request_id=f"c{k}-{i}", anchors=anchors)
                if i % 4 == 3:
                    envelope = HANDSHAKE
                conn.request("POST", "/cgp", json.dumps(envelope), headers)
                response = conn.getresponse()
                body = response.read()  # raises if the body is not whole
                with lock:
                    answers.append((envelope, response.status, response.getheader("content-length"), body))
        except Exception as exc:  # noqa: BLE001 - collected and reported below
            with lock:
                failures.append(repr(exc))
        finally:
            conn.close()

    writer = threading.Thread(target=churn)
    writer.start()
    clients = [threading.Thread(target=client, args=(k,)) for k in range(8)]
    for t in clients:
        t.start()
    for t in clients:
        t.join(300)
    stop.set()
    writer.join(30)
    assert not failures, failures
    assert len(answers) == 8 * 12
    for envelope, status, length, body in answers:
        assert status == 200 and int(length) == len(body)
        reply = json.loads(body)
        assert_schema_valid(envelope_validator, reply)
        if envelope["type"] == "query":
            assert reply["type"] == "frames" and reply["id"] == envelope["id"], reply
            for frame in reply["result"]["frames"]:
                digest = "sha256:" + hashlib.sha256(frame["content"].encode()).hexdigest()
                assert frame["content_digest"] == digest  # each frame whole, not torn by a write
        else:
            assert reply["type"] == "handshake_ack"
    assert server.proc.poll() is None


def test_http_restart_on_the_same_cache_loads_the_index_and_gets_a_new_token(start, tmp_path, envelope_validator):
    repo, cache = make_repo(tmp_path / "repo"), tmp_path / "cache"
    first = start(repo=repo, cache=cache)
    before = post(first, query(goal="retry policy")).json()
    assert first.stop() == 0
    assert not first.state_path.exists()  # a stopped server leaves no stale URL behind
    assert "stopped after" in first.stderr()
    second = start(repo=repo, cache=cache)
    end = time.monotonic() + 60
    while "index ready" not in second.stderr():
        assert time.monotonic() < end, second.stderr()
        time.sleep(0.05)
    assert "loaded the persisted index" in second.stderr() and "0 parsed" in second.stderr()
    assert second.token != first.token and second.state_path == first.state_path
    assert post(second, HANDSHAKE, token=first.token).status == 401
    after = post(second, query(goal="retry policy")).json()
    assert_schema_valid(envelope_validator, after)
    assert [f["id"] for f in after["result"]["frames"]] == [f["id"] for f in before["result"]["frames"]]


def test_http_second_server_for_the_same_repository_and_cache_is_refused(start, base, served):
    server = start(cache=base / "cache", wait=False)
    assert server.proc.wait(timeout=60) == 1
    assert f"another server serves this repository; its URL is in {served.state_path}" in server.stderr()
    assert json.loads(served.state_path.read_text())["url"] == served.url  # left as it was


def test_http_port_already_taken_is_a_clear_error(start, served):
    server = start(http=str(served.port), wait=False)
    assert server.proc.wait(timeout=60) == 1
    assert "Address already in use" in server.stderr() and "Traceback" not in server.stderr()


# -- the protocol's own probe ------------------------------------------------------------


@pytest.mark.conformance
def test_http_conformance_suite_passes_10_with_the_3_stdio_only_checks_skipped(served):
    run_sh = shared_file("cgp-conformance", "run.sh")
    url = f"{served.url}?token={served.token}"
    run = subprocess.run(
        ["bash", str(run_sh), "--http", url],
        capture_output=True,
        text=True,
        timeout=1200,
    )
    report = run.stdout + run.stderr
    assert run.returncode == 0, report[-4000:]
    assert "10/13 passed, 3 skipped, 0 failed" in report, report[-4000:]
    skipped = [line.split(":")[0].split()[1] for line in report.splitlines() if line.strip().startswith("SKIP")]
    assert sorted(skipped) == ["correlation", "embedding-fingerprint", "malformed-input-tolerance"]


def test_http_serves_no_socket_but_the_one_asked_for(served):
    post(served, query())
    for proto, address, port, state in inet_sockets(served.proc.pid):
        assert proto in ("tcp", "tcp6") and port == served.port, (proto, address, port, state)
    assert os.path.exists(f"/proc/{served.proc.pid}")
