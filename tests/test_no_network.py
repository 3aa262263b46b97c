"""`egress: false` must be true: with every socket call failing, the provider
still starts, indexes, counts tokens and answers."""

from __future__ import annotations

from .conftest import REPO_ROOT

SITECUSTOMIZE = '''
import socket
import sys

sys.stderr.write("network guard active\\n")

def _refuse(*args, **kwargs):
    raise OSError("network access attempted by the provider")

socket.socket.connect = _refuse
socket.socket.connect_ex = _refuse
socket.create_connection = _refuse
socket.getaddrinfo = _refuse
'''


def test_provider_answers_with_the_network_cut(repo, provider_factory, tmp_path):
    guard = tmp_path / "guard"
    guard.mkdir()
    (guard / "sitecustomize.py").write_text(SITECUSTOMIZE)
    p = provider_factory(repo, env={"PYTHONPATH": f"{guard}:{REPO_ROOT}"})
    assert p.handshake()["type"] == "handshake_ack"
    reply = p.query(goal="retry policy")
    frames = reply["result"]["frames"]
    assert frames and all("canonical_token_cost" in f for f in frames)  # the tokenizer loaded offline
    p.send({"type": "shutdown"})
    assert p.proc.wait(timeout=15) == 0
    stderr = p.proc.stderr.read()
    assert b"network guard active" in stderr  # the guard really was in place
    assert b"network access attempted" not in stderr


def test_http_provider_answers_with_the_network_cut_and_listens_only_where_asked(repo, home, tmp_path):
    """Over HTTP too (issue 38): the one socket it listens on is the loopback one it was
    asked for, and it opens no connection of its own."""
    from .http_server import HttpServer, inet_sockets, post

    guard = tmp_path / "guard"
    guard.mkdir()
    (guard / "sitecustomize.py").write_text(SITECUSTOMIZE)
    server = HttpServer(repo, home, tmp_path / "cache", env={"PYTHONPATH": f"{guard}:{REPO_ROOT}"})
    try:
        server.wait_started()
        assert post(server, {"type": "handshake", "protocol_version": "contextgraph/1.0"}).status == 200
        reply = post(server, {"type": "query", "query": {"goal": "retry policy", "max_frames": 8, "max_tokens": 4096}})
        frames = reply.json()["result"]["frames"]
        assert frames and all("canonical_token_cost" in f for f in frames)  # the tokenizer loaded offline
        held = inet_sockets(server.proc.pid)  # the server's and its helpers' IP sockets
        assert ("tcp", "0100007F", server.port, "LISTEN") in held
        for proto, address, port, state in held:
            assert proto == "tcp" and port == server.port, held  # the listener and its accepted connections
    finally:
        rc = server.stop()
    assert rc == 0
    assert "network guard active" in server.stderr()  # the guard really was in place
    assert "network access attempted" not in server.stderr()
